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
    plot_->plotLayout()->remove(caption_);
    caption_ = nullptr;
    plot_->plotLayout()->simplify();
    rect_ = nullptr;
    map_ = nullptr;
}

void ForecastAttentionStrip::show(const RunCurves::ForecastAttention& attention, const QString& runLabel)
{
    remove();
    if (attention.rows.empty() || attention.window <= 0)
        return;
    // The weights' range first: spread attention (ten steps near 0.1 each) would be one flat colour on 0..1, so white
    // is the smallest weight shown and the darkest the largest, and the caption says which they are.
    double smallest = 1.0, largest = 0.0;
    for (const auto& weights : attention.rows)
        for (float w : weights) {
            smallest = std::min(smallest, static_cast<double>(w));
            largest = std::max(largest, static_cast<double>(w));
        }
    if (!(largest > smallest))
        smallest = 0.0, largest = std::max(largest, 1e-9);
    QCPLayoutGrid* layout = plot_->plotLayout();
    const int row = layout->rowCount();
    caption_ = new QCPTextElement(plot_, QObject::tr("%1 of %2 over each window's steps: white %3, darkest %4")
                                             .arg(attention.name, runLabel, QString::number(smallest, 'g', 2),
                                                  QString::number(largest, 'g', 2)),
                                  QFont(plot_->font().family(), 8));
    caption_->setObjectName(QStringLiteral("attentionCaption"));
    caption_->setMargins(QMargins(2, 2, 2, 0));
    layout->addElement(row, 0, caption_);
    layout->setRowStretchFactor(row, 0.001);
    rect_ = new QCPAxisRect(plot_);
    rect_->setObjectName(QStringLiteral("attentionStrip"));
    layout->addElement(row + 1, 0, rect_);
    layout->setRowStretchFactor(row + 1, 0.28); // the plot keeps most of the height
    if (!margins_)
        margins_ = new QCPMarginGroup(plot_);
    above_->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    rect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    rect_->setRangeDrag(Qt::Horizontal);
    rect_->setRangeZoom(Qt::Horizontal);

    QCPAxis* time = rect_->axis(QCPAxis::atBottom);
    QCPAxis* steps = rect_->axis(QCPAxis::atLeft);
    time->setTickLabels(false);
    steps->setLabel(QObject::tr("steps back"));
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
    map_->setDataRange(QCPRange(smallest, largest));
    time->setRange(above_->axis(QCPAxis::atBottom)->range());
    QObject::connect(above_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), time,
                     qOverload<const QCPRange&>(&QCPAxis::setRange));
    QObject::connect(time, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), above_->axis(QCPAxis::atBottom),
                     qOverload<const QCPRange&>(&QCPAxis::setRange));
}

} // namespace attnlab::ui
