#include "ui/plots/LiveComparisonPlot.h"
#include "ui/plots/CurveAxes.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab::ui {
namespace {


} // namespace

LiveComparisonPlot::LiveComparisonPlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("liveComparisonPlot"));
    setMinimumSize(360, 300);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    plotLayout()->clear();
    title_ = new QCPTextElement(this, tr("Compared runs"), QFont(font().family(), 11, QFont::Bold));
    title_->setMargins(QMargins(2, 4, 2, 0));
    plotLayout()->addElement(0, 0, title_);

    legend_ = new QCPLegend;
    plotLayout()->addElement(1, 0, legend_);
    legend_->setLayer(QStringLiteral("legend"));
    legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend_->setWrap(2); // two runs a row: four "model + position" names fit a narrow plot
    legend_->setBorderPen(Qt::NoPen);
    legend_->setBrush(Qt::NoBrush);
    legend_->setMargins(QMargins(4, 0, 4, 0));
    legend_->setVisible(true);

    lossRect_ = CurveAxes::makeRect(this, tr("train loss"), QString());
    metricRect_ = CurveAxes::makeRect(this, QString(), tr("step"));
    plotLayout()->addElement(2, 0, lossRect_);
    plotLayout()->addElement(3, 0, metricRect_);
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowStretchFactor(1, 0.001);
    auto* margins = new QCPMarginGroup(this);
    lossRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    metricRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    connect(lossRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            metricRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(metricRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            lossRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    clear();
}

void LiveComparisonPlot::clear()
{
    clearGraphs();
    legend_->clearItems();
    runs_.clear();
    plannedSteps_ = 0;
    setMetric(QStringLiteral("accuracy"));
    rescale();
}

void LiveComparisonPlot::clearMetrics(int index)
{
    if (index < 0 || index >= runCount())
        return;
    const Run& run = runs_[static_cast<std::size_t>(index)];
    for (QCPGraph* graph : {run.trainLoss, run.devMetric, run.testMetric})
        graph->data()->clear();
}

void LiveComparisonPlot::setTitle(const QString& title)
{
    title_->setText(title);
    replot(rpQueuedReplot);
}

QString LiveComparisonPlot::title() const
{
    return title_->text();
}

void LiveComparisonPlot::addRun(const QString& label, const QColor& colour)
{
    const int index = runCount();
    auto graph = [&](QCPAxisRect* rect, const QString& objectName) {
        QCPGraph* g = addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        g->setObjectName(objectName.arg(index));
        g->setName(label);
        g->removeFromLegend();
        g->setPen(QPen(colour, 2));
        return g;
    };
    Run run;
    run.trainLoss = graph(lossRect_, QStringLiteral("trainLossGraph%1"));
    QPen thin(colour, 1.5);
    run.trainLoss->setPen(thin);
    run.devMetric = graph(metricRect_, QStringLiteral("devMetricGraph%1"));
    run.devMetric->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, 5));
    run.testMetric = graph(metricRect_, QStringLiteral("testMetricGraph%1"));
    run.testMetric->setLineStyle(QCPGraph::lsNone);
    run.testMetric->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, colour, 11));
    run.devMetric->addToLegend(legend_); // one entry per run, in its colour
    runs_.push_back(run);
    rescale();
}

void LiveComparisonPlot::setPlannedSteps(int steps)
{
    if (steps <= plannedSteps_)
        return;
    plannedSteps_ = steps;
    rescale();
}

void LiveComparisonPlot::setMetric(const QString& metric)
{
    metric_ = metric;
    metricRect_->axis(QCPAxis::atLeft)->setLabel(metric == QLatin1String("rmse")   ? tr("dev RMSE (target units)")
                                                 : metric == QLatin1String("bleu") ? tr("dev BLEU (sacreBLEU)")
                                                                                   : tr("dev accuracy (%)"));
}

void LiveComparisonPlot::addMetrics(int index, const std::vector<MetricPoint>& points)
{
    if (index < 0 || index >= runCount())
        return;
    const Run& run = runs_[static_cast<std::size_t>(index)];
    for (const auto& point : points) {
        // A time-series run reports RMSE, never accuracy: the first RMSE point switches the panel.
        if (point.name == "rmse" && metric_ != QLatin1String("rmse")) {
            const bool empty = std::all_of(runs_.begin(), runs_.end(),
                                           [](const Run& r) { return r.devMetric->data()->isEmpty(); });
            if (empty)
                setMetric(QStringLiteral("rmse"));
        }
        // Translation runs are compared by BLEU (the compared runs share one dataset, so one task).
        if (point.name == "bleu" && metric_ != QLatin1String("bleu")) {
            for (const Run& r : runs_)
                for (QCPGraph* graph : {r.devMetric, r.testMetric})
                    graph->data()->clear();
            setMetric(QStringLiteral("bleu"));
        }
        if (!std::isfinite(point.value))
            continue; // a diverged run's NaN would wreck the ranges; its status says it
        const double value = point.name == "accuracy" ? 100.0 * point.value : point.value;
        if (point.split == "train" && point.name == "loss")
            run.trainLoss->addData(point.step, value);
        else if (point.split == "dev" && QString::fromStdString(point.name) == metric_)
            run.devMetric->addData(point.step, value);
        else if (point.split == "test" && QString::fromStdString(point.name) == metric_)
            run.testMetric->addData(point.step, value);
    }
    rescale();
}

void LiveComparisonPlot::rescale()
{
    double lastStep = plannedSteps_;
    for (const Run& run : runs_) {
        for (QCPGraph* graph : {run.trainLoss, run.devMetric, run.testMetric}) {
            if (!graph->data()->isEmpty())
                lastStep = std::max(lastStep, (graph->data()->constEnd() - 1)->key);
        }
    }
    const QCPRange steps(0, std::max(1.0, lastStep * 1.02));
    lossRect_->axis(QCPAxis::atBottom)->setRange(steps);
    metricRect_->axis(QCPAxis::atBottom)->setRange(steps);

    auto fit = [](QCPAxis* axis, const std::vector<const QCPGraph*>& graphs, double emptyHigh) {
        double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
        bool any = false;
        for (const QCPGraph* graph : graphs)
            any = CurveAxes::widenBy(graph, low, high) || any;
        if (!any) {
            axis->setRange(0, emptyHigh);
            return;
        }
        const double pad = std::max(0.08 * (high - low), 0.02 * std::max(std::abs(high), 1e-3));
        axis->setRange(std::max(0.0, low - pad), high + pad);
    };
    std::vector<const QCPGraph*> losses, metrics;
    for (const Run& run : runs_) {
        losses.push_back(run.trainLoss);
        metrics.push_back(run.devMetric);
        metrics.push_back(run.testMetric);
    }
    fit(lossRect_->axis(QCPAxis::atLeft), losses, 1.0);
    if (metric_ == QLatin1String("rmse")) {
        fit(metricRect_->axis(QCPAxis::atLeft), metrics, 1.0);
    } else {
        double low = 100, high = 0;
        bool any = false;
        for (const QCPGraph* graph : metrics)
            any = CurveAxes::widenBy(graph, low, high) || any;
        if (any)
            metricRect_->axis(QCPAxis::atLeft)->setRange(std::max(0.0, std::floor(low / 10) * 10 - 5),
                                                           std::min(105.0, std::ceil(high / 10) * 10 + 5));
        else
            metricRect_->axis(QCPAxis::atLeft)->setRange(0, 100);
    }
    replot(rpQueuedReplot);
}

} // namespace attnlab::ui
