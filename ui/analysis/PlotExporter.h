#pragma once
#include <QtCore/QCoreApplication>
#include <QtCore/QList>
#include <QtCore/QString>

class QCustomPlot;

namespace attnlab::ui {

// Saves plots as PNG, SVG or PDF, several in a grid on one page (the compare view's panels). The size
// is in output pixels at `dpi`: the plots are laid out at width × 96 / dpi logical pixels and scaled
// up, so a 3000 × 1800 export at 300 dpi reads like a 960 × 576 plot on screen, only sharper.
// PNG is exactly width × height pixels; SVG and PDF are vector, text included (a PDF page measures
// width / dpi × height / dpi inches).
class PlotExporter {
    Q_DECLARE_TR_FUNCTIONS(PlotExporter)

public:
    enum class Format { Png, Svg, Pdf };

    // The format of a file name's extension (.png, .svg, .pdf, any case); false when none of them.
    static bool formatOf(const QString& path, Format& format);
    static QString extension(Format format); // "png", "svg", "pdf"

    // Returns "" when written, else what went wrong (in words for the user).
    static QString save(const QList<QCustomPlot*>& plots, const QString& path, int width, int height, int dpi,
                        int columns = 1);
};

} // namespace attnlab::ui
