#include "ui/analysis/ForecastAttentionStrip.h"

#include <qcustomplot.h>

#include <algorithm>

namespace attnlab::ui {

ForecastAttentionStrip::ForecastAttentionStrip(QCustomPlot* plot, QCPAxisRect* above) : plot_(plot), above_(above)
{
}

void ForecastAttentionStrip::remove()
{
    if (!rect_)
        return;
    plot_->removePlottable(map_); // the map belongs to the plot, not to its axis rect
    plot_->plotLayout()->remove(rect_);
    plot_->plotLayout()->simplify();
    rect_ = nullptr;
    map_ = nullptr;
}

void ForecastAttentionStrip::show(const RunCurves::ForecastAttention& attention, const QString& runLabel)
{
    remove();
    if (attention.rows.empty() || attention.window <= 0)
        return;
    rect_ = new QCPAxisRect(plot_);
    rect_->setObjectName(QStringLiteral("attentionStrip"));
    QCPLayoutGrid* layout = plot_->plotLayout();
    const int row = layout->rowCount();
    layout->addElement(row, 0, rect_);
    layout->setRowStretchFactor(row, 0.28); // the plot keeps most of the height
    if (!margins_)
        margins_ = new QCPMarginGroup(plot_);
    above_->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    rect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    rect_->setRangeDrag(Qt::Horizontal);
    rect_->setRangeZoom(Qt::Horizontal);

    QCPAxis* time = rect_->axis(QCPAxis::atBottom);
    QCPAxis* steps = rect_->axis(QCPAxis::atLeft);
    time->setTickLabels(false);
    steps->setLabel(QObject::tr("%1 of %2\nsteps back").arg(attention.name, runLabel));
    steps->setLabelFont(QFont(plot_->font().family(), 7));
    steps->setTickLabelFont(QFont(plot_->font().family(), 7));
    steps->setRange(-0.5, attention.window - 0.5);

    map_ = new QCPColorMap(time, steps);
    map_->setObjectName(QStringLiteral("attentionMap"));
    map_->setInterpolate(false);
    const int n = static_cast<int>(attention.rows.size());
    map_->data()->setSize(n, attention.window);
    map_->data()->setRange(QCPRange(attention.firstRow, attention.firstRow + n - 1), QCPRange(0, attention.window - 1));
    for (int i = 0; i < n; ++i) {
        const auto& weights = attention.rows[static_cast<std::size_t>(i)];
        for (int t = 0; t < attention.window && t < static_cast<int>(weights.size()); ++t) // oldest first: T-1-t back
            map_->data()->setCell(i, attention.window - 1 - t, weights[static_cast<std::size_t>(t)]);
    }
    QCPColorGradient gradient; // the attention heatmaps' white to blue
    gradient.setColorStopAt(0.0, QColor(255, 255, 255));
    gradient.setColorStopAt(0.35, QColor(158, 202, 225));
    gradient.setColorStopAt(1.0, QColor(8, 48, 107));
    map_->setGradient(gradient);
    // White is no weight, the darkest the largest weight any prediction gave (ten steps share 1: a fixed 0..1
    // would leave spread attention all but white).
    double largest = 0.0;
    for (const auto& weights : attention.rows)
        for (float w : weights)
            largest = std::max(largest, static_cast<double>(w));
    map_->setDataRange(QCPRange(0.0, largest > 0.0 ? largest : 1.0));
    time->setRange(above_->axis(QCPAxis::atBottom)->range());
    QObject::connect(above_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), time,
                     qOverload<const QCPRange&>(&QCPAxis::setRange));
    QObject::connect(time, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), above_->axis(QCPAxis::atBottom),
                     qOverload<const QCPRange&>(&QCPAxis::setRange));
}

} // namespace attnlab::ui
