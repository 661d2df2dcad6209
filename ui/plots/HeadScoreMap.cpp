#include "ui/plots/HeadScoreMap.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace attnlab::ui {

HeadScoreMap::HeadScoreMap(const QString& title, QWidget* parent)
    : QWidget(parent), title_(title), plot_(new QCustomPlot(this))
{
    plot_->setObjectName(QStringLiteral("headScorePlot"));
    plot_->setMinimumSize(220, 260);
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(
        0, 0, new QCPTextElement(plot_, title_, QFont(font().family(), font().pointSize(), QFont::Bold)));
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    map_->setInterpolate(false);
    auto* scale = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(1, 1, scale);
    map_->setColorScale(scale);
    QCPColorGradient gradient; // the attention heatmaps' white to blue: a score is a weight
    gradient.setColorStopAt(0.0, QColor(255, 255, 255));
    gradient.setColorStopAt(0.35, QColor(158, 202, 225));
    gradient.setColorStopAt(1.0, QColor(8, 48, 107));
    map_->setGradient(gradient);
    map_->setDataRange(QCPRange(0.0, 1.0));
    plot_->xAxis->setLabel(tr("head"));
    plot_->yAxis->setLabel(tr("layer"));
    plot_->yAxis->setRangeReversed(true); // layer 1 at the top, as the thumbnail grid
    best_ = new QCPItemText(plot_);
    best_->setColor(QColor(230, 159, 0)); // Okabe-Ito orange: seen on white and on dark blue
    best_->setText(QStringLiteral("★"));
    best_->setVisible(false);
    connect(plot_, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable*, int, QMouseEvent* event) {
        const int head = qRound(plot_->xAxis->pixelToCoord(event->pos().x())) - 1;
        const int layer = qRound(plot_->yAxis->pixelToCoord(event->pos().y())) - 1;
        if (layer >= 0 && layer < layers_ && head >= 0 && head < heads_)
            emit headClicked(layer, head);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    clear();
}

void HeadScoreMap::setScores(const std::vector<std::vector<double>>& scores)
{
    layers_ = static_cast<int>(scores.size());
    heads_ = layers_ > 0 ? static_cast<int>(scores.front().size()) : 0;
    if (layers_ == 0 || heads_ == 0) {
        clear();
        return;
    }
    QCPColorMapData* data = map_->data();
    data->setSize(heads_, layers_);
    data->setRange(QCPRange(1, std::max(heads_, 2)), QCPRange(1, std::max(layers_, 2)));
    int bestLayer = 0, bestHead = 0;
    for (int l = 0; l < layers_; ++l)
        for (int h = 0; h < heads_; ++h) {
            const double v = scores[static_cast<std::size_t>(l)][static_cast<std::size_t>(h)];
            data->setCell(h, l, v);
            if (v > scores[static_cast<std::size_t>(bestLayer)][static_cast<std::size_t>(bestHead)]) {
                bestLayer = l;
                bestHead = h;
            }
        }
    map_->setVisible(true);
    best_->position->setCoords(bestHead + 1, bestLayer + 1);
    best_->setVisible(true);
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    plot_->xAxis->setTicker(ticker);
    auto layerTicker = QSharedPointer<QCPAxisTickerFixed>::create();
    layerTicker->setTickStep(layers_ > 12 ? 5.0 : 1.0);
    plot_->yAxis->setTicker(layerTicker);
    plot_->xAxis->setRange(0.5, heads_ + 0.5);
    plot_->yAxis->setRange(0.5, layers_ + 0.5);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void HeadScoreMap::clear()
{
    layers_ = heads_ = 0;
    map_->setVisible(false);
    best_->setVisible(false);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attnlab::ui
