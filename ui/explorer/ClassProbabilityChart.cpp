#include "ui/explorer/ClassProbabilityChart.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

namespace attnlab::ui {

ClassProbabilityChart::ClassProbabilityChart(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("classProbabilityChart"));
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("probabilityPlot"));
    plot_->setMinimumSize(220, 140);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    // Classes down the y axis (first at the top), probability along x.
    bars_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    bars_->setObjectName(QStringLiteral("probabilityBars"));
    predictedBar_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    const QColor bar = palette().color(QPalette::Mid), highlight = palette().color(QPalette::Highlight);
    bars_->setBrush(bar);
    bars_->setPen(Qt::NoPen);
    predictedBar_->setBrush(highlight);
    predictedBar_->setPen(Qt::NoPen);
    bars_->setWidth(0.7);
    predictedBar_->setWidth(0.7);
    plot_->xAxis->setRange(0, 1.18); // room for the labels after a full bar
    plot_->xAxis->setLabel(tr("probability"));
    plot_->yAxis->setRangeReversed(true);
    plot_->yAxis->grid()->setVisible(false);
    plot_->yAxis->setSubTicks(false);
    plot_->yAxis->setTickLength(0, 0);
    // 0, 0.5 and 1: at 0.25 a step the labels ran together ("0.250.50.75") in a narrow dock.
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(0.5);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    plot_->xAxis->setTicker(ticker);
}

void ClassProbabilityChart::clear()
{
    bars_->data()->clear();
    predictedBar_->data()->clear();
    plot_->clearItems();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ClassProbabilityChart::setProbabilities(const std::vector<std::string>& classes,
                                             const std::vector<double>& probabilities, int predicted)
{
    clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t c = 0; c < classes.size() && c < probabilities.size(); ++c) {
        const double key = static_cast<double>(c);
        ticker->addTick(key, QString::fromStdString(classes[c]));
        (static_cast<int>(c) == predicted ? predictedBar_ : bars_)->addData(key, probabilities[c]);
        auto* label = new QCPItemText(plot_);
        label->setText(QStringLiteral("%1%").arg(100.0 * probabilities[c], 0, 'f', 1));
        // A long bar carries its label inside it, right-aligned: after it, "97.0%" was cut to "97." in a narrow dock.
        const bool inside = probabilities[c] > 0.6;
        label->setPositionAlignment((inside ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        label->position->setCoords(probabilities[c] + (inside ? -0.01 : 0.01), key);
        label->setColor(palette().color(inside && static_cast<int>(c) == predicted ? QPalette::HighlightedText : QPalette::WindowText));
    }
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(-0.6, static_cast<double>(classes.size()) - 0.4);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::vector<double> ClassProbabilityChart::shownProbabilities() const
{
    std::vector<double> out(static_cast<std::size_t>(bars_->dataCount() + predictedBar_->dataCount()), 0.0);
    for (const QCPBars* b : {bars_, predictedBar_})
        for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it)
            out[static_cast<std::size_t>(it->key)] = it->value;
    return out;
}

} // namespace attnlab::ui
