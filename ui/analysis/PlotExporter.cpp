#include "ui/analysis/PlotExporter.h"

#include <qcustomplot.h>

#include <QtCore/QCoreApplication>
#include <QtCore/QFileInfo>
#include <QtGui/QImage>
#include <QtGui/QPdfWriter>
#include <QtSvg/QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {
namespace {

// Draws the plots in a grid over a logical width × height (in 96-dpi pixels) with the painter's transform.
void paintGrid(QCPPainter& painter, const QList<QCustomPlot*>& plots, double width, double height, int columns)
{
    columns = std::max(1, std::min(columns, static_cast<int>(plots.size())));
    const int rows = (static_cast<int>(plots.size()) + columns - 1) / columns;
    const int cellWidth = static_cast<int>(width / columns);
    const int cellHeight = static_cast<int>(height / rows);
    for (int i = 0; i < plots.size(); ++i) {
        painter.save();
        painter.translate((i % columns) * cellWidth, (i / columns) * cellHeight);
        plots[i]->toPainter(&painter, cellWidth, cellHeight);
        painter.restore();
    }
}

} // namespace

bool PlotExporter::formatOf(const QString& path, Format& format)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) format = Format::Png;
    else if (suffix == QLatin1String("svg")) format = Format::Svg;
    else if (suffix == QLatin1String("pdf")) format = Format::Pdf;
    else return false;
    return true;
}

QString PlotExporter::extension(Format format)
{
    switch (format) {
    case Format::Svg: return QStringLiteral("svg");
    case Format::Pdf: return QStringLiteral("pdf");
    case Format::Png: break;
    }
    return QStringLiteral("png");
}

QString PlotExporter::save(const QList<QCustomPlot*>& plots, const QString& path, int width, int height, int dpi,
                           int columns)
{
    Format format;
    if (!formatOf(path, format))
        return tr("%1: the file name must end in .png, .svg or .pdf").arg(path);
    if (plots.isEmpty())
        return tr("nothing to export: no plot is shown");
    if (width < 16 || height < 16 || width > 20000 || height > 20000)
        return tr("the size must be 16 to 20000 pixels each way, got %1 × %2").arg(width).arg(height);
    if (dpi < 24 || dpi > 2400)
        return tr("the resolution must be 24 to 2400 dpi, got %1").arg(dpi);
    // Logical 96-dpi pixels: what fonts and line widths are measured in while laying the plots out.
    const double scale = dpi / 96.0;
    const double logicalWidth = width / scale, logicalHeight = height / scale;

    bool ok = true;
    if (format == Format::Png) {
        QImage image(width, height, QImage::Format_ARGB32);
        image.setDotsPerMeterX(3780); // 96 dpi while painting, so font sizes match the layout
        image.setDotsPerMeterY(3780);
        image.fill(Qt::white);
        {
            QCPPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.scale(scale, scale);
            paintGrid(painter, plots, logicalWidth, logicalHeight, columns);
        }
        const int dotsPerMeter = static_cast<int>(std::lround(dpi / 0.0254));
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        ok = image.save(path, "PNG");
    } else if (format == Format::Svg) {
        // 96 dpi as well: the size and view box are logical pixels (width / dpi inches on paper).
        const QSize size(static_cast<int>(std::lround(logicalWidth)), static_cast<int>(std::lround(logicalHeight)));
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setResolution(96);
        svg.setTitle(QFileInfo(path).completeBaseName());
        svg.setDescription(tr("Attention Lab run comparison"));
        QCPPainter painter;
        ok = painter.begin(&svg);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            paintGrid(painter, plots, logicalWidth, logicalHeight, columns);
            ok = painter.end();
        }
    } else {
        QPdfWriter pdf(path);
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(width * 72.0 / dpi, height * 72.0 / dpi), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(QFileInfo(path).completeBaseName());
        pdf.setCreator(QStringLiteral("Attention Lab"));
        QCPPainter painter;
        ok = painter.begin(&pdf);
        if (ok) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            // The page in device units may round differently from our logical size: fit it exactly.
            const QRect page = painter.viewport();
            painter.scale(page.width() / logicalWidth, page.height() / logicalHeight);
            paintGrid(painter, plots, logicalWidth, logicalHeight, columns);
            ok = painter.end();
        }
    }
    // toPainter laid the plots out at the export size; lay them out for the screen again.
    for (QCustomPlot* plot : plots)
        plot->replot(QCustomPlot::rpQueuedReplot);
    if (!ok)
        return tr("could not write %1 (is the folder there and writable?)").arg(path);
    return {};
}

} // namespace attnlab::ui
