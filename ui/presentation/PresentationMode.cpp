#include "ui/presentation/PresentationMode.h"

#include <QCoreApplication>
#include <QMainWindow>
#include <QSettings>
#include <qcustomplot.h>

#include <algorithm>

namespace attnlab::ui {
namespace {

const char* kBase = "attnlabPresentationBase"; // a plot item's unscaled font size or pen width

QFont scaledFont(QObject* owner, const char* key, const QFont& font, double factor)
{
    QVariant base = owner->property(key);
    if (!base.isValid()) {
        base = font.pointSizeF() > 0 ? font.pointSizeF() : 9.0;
        owner->setProperty(key, base);
    }
    QFont f = font;
    f.setPointSizeF(base.toDouble() * factor);
    return f;
}

QPen scaledPen(QObject* owner, const char* key, const QPen& pen, double factor)
{
    QVariant base = owner->property(key);
    if (!base.isValid()) {
        base = std::max(1.0, pen.widthF());
        owner->setProperty(key, base);
    }
    QPen p = pen;
    p.setWidthF(base.toDouble() * factor);
    return p;
}

void scalePlot(QCustomPlot* plot, double factor)
{
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            axis->setTickLabelFont(scaledFont(axis, "attnlabTickFont", axis->tickLabelFont(), factor));
            axis->setLabelFont(scaledFont(axis, "attnlabLabelFont", axis->labelFont(), factor));
        }
    for (int i = 0; i < plot->graphCount(); ++i) {
        QCPGraph* graph = plot->graph(i);
        graph->setPen(scaledPen(graph, kBase, graph->pen(), factor));
    }
    if (plot->legend)
        plot->legend->setFont(scaledFont(plot->legend, kBase, plot->legend->font(), factor));
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
            title->setFont(scaledFont(title, kBase, title->font(), factor));
    plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace

PresentationMode::PresentationMode(QMainWindow* window) : QObject(window), window_(window)
{
    setObjectName(QStringLiteral("presentationMode"));
    zoom_ = std::clamp(QSettings().value(QStringLiteral("presentation/zoom"), 1.5).toDouble(), 1.0, 3.0);
}

QPalette PresentationMode::highContrast(const QPalette& system)
{
    const bool dark = system.color(QPalette::Window).lightness() < 128;
    const QColor background = dark ? Qt::black : Qt::white;
    const QColor text = dark ? Qt::white : Qt::black;
    QPalette p = system;
    // Active and inactive only: disabled text keeps the system's grey, so a disabled Stop still reads as such.
    for (auto group : {QPalette::Active, QPalette::Inactive}) {
        for (auto role : {QPalette::Window, QPalette::Base, QPalette::AlternateBase, QPalette::Button})
            p.setColor(group, role, background);
        for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::BrightText})
            p.setColor(group, role, text);
        p.setColor(group, QPalette::Highlight, dark ? QColor(255, 200, 0) : QColor(0, 60, 200));
        p.setColor(group, QPalette::HighlightedText, dark ? Qt::black : Qt::white);
    }
    p.setColor(QPalette::Disabled, QPalette::Window, background);
    p.setColor(QPalette::Disabled, QPalette::Base, background);
    p.setColor(QPalette::Disabled, QPalette::Button, background);
    return p;
}

void PresentationMode::setZoom(double zoom)
{
    zoom_ = std::clamp(zoom, 1.0, 3.0);
    QSettings().setValue(QStringLiteral("presentation/zoom"), zoom_);
    if (active_)
        apply(zoom_);
}

void PresentationMode::setActive(bool active)
{
    if (active == active_)
        return;
    active_ = active;
    if (active) {
        font_ = window_->font();
        palette_ = window_->palette();
        wasMaximized_ = window_->isMaximized();
        window_->setPalette(highContrast(palette_));
        hiddenByUs_.clear();
        for (QWidget* w : hidden_)
            if (w->isVisible()) {
                w->hide();
                hiddenByUs_ << w;
            }
        apply(zoom_);
        window_->showFullScreen();
    } else {
        window_->setPalette(palette_);
        apply(1.0);
        window_->setFont(font_);
        for (QWidget* w : hiddenByUs_)
            w->show();
        wasMaximized_ ? window_->showMaximized() : window_->showNormal();
    }
    // Lay out with the new font now: the status bar kept its old widths until the next event loop pass, so
    // its texts were cut in what a grab (or a slow projector's first frame) showed.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    emit activeChanged(active_);
}

void PresentationMode::apply(double factor)
{
    QFont f = font_;
    f.setPointSizeF((font_.pointSizeF() > 0 ? font_.pointSizeF() : 9.0) * factor);
    window_->setFont(f);
    applied_ = factor;
    rescalePlots();
}

void PresentationMode::rescalePlots()
{
    if (!active_ && applied_ == 1.0)
        return;
    for (QCustomPlot* plot : window_->findChildren<QCustomPlot*>())
        scalePlot(plot, applied_);
}

} // namespace attnlab::ui
