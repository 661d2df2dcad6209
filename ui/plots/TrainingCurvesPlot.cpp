#include "ui/plots/TrainingCurvesPlot.h"
#include "ui/plots/CurveAxes.h"

#include <QTimer>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab::ui {
namespace {

const QColor kTrainColor(31, 119, 180);  // the usual blue / orange / green of plotting libraries
const QColor kDevColor(255, 127, 14);
const QColor kTestColor(44, 160, 44);

QCPGraph* makeGraph(QCustomPlot* plot, QCPAxisRect* rect, const char* objectName, const QString& name,
                    const QColor& color, bool line)
{
    QCPGraph* graph = plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setObjectName(QLatin1String(objectName));
    graph->setName(name);
    graph->removeFromLegend();
    if (line) {
        graph->setPen(QPen(color, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    } else {
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setPen(QPen(color, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, color, 11));
    }
    return graph;
}


} // namespace

TrainingCurvesPlot::TrainingCurvesPlot(QWidget* parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("trainingCurvesPlot"));
    setMinimumSize(360, 300);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    // Our own layout: title, one shared legend row (no legend covers a curve), then the two rects.
    plotLayout()->clear();
    title_ = new QCPTextElement(this, tr("Training curves"), QFont(font().family(), 11, QFont::Bold));
    subtitle_ = new QCPTextElement(this, QString(), QFont(font().family(), 9));
    subtitle_->setTextColor(QColor(80, 80, 80));
    subtitle_->setMargins(QMargins(2, 0, 2, 2));
    title_->setMargins(QMargins(2, 4, 2, 0));
    auto* heading = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, heading);
    heading->addElement(0, 0, title_);
    heading->addElement(1, 0, subtitle_);
    heading->setRowSpacing(0);

    legend_ = new QCPLegend;
    plotLayout()->addElement(1, 0, legend_);
    legend_->setLayer(QStringLiteral("legend"));
    legend_->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend_->setBorderPen(Qt::NoPen);
    legend_->setBrush(Qt::NoBrush);
    legend_->setMargins(QMargins(4, 0, 4, 0));
    legend_->setVisible(true);

    lossRect_ = CurveAxes::makeRect(this, tr("loss"), QString());
    metricRect_ = CurveAxes::makeRect(this, QString(), tr("step"));
    plotLayout()->addElement(2, 0, lossRect_);
    plotLayout()->addElement(3, 0, metricRect_);
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowStretchFactor(1, 0.001);
    // Same left margin in both rects, so their step axes line up.
    auto* margins = new QCPMarginGroup(this);
    lossRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    metricRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    // Dragging or zooming the step axis of one rect moves the other with it.
    connect(lossRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            metricRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(metricRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            lossRect_->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));

    trainLoss_ = makeGraph(this, lossRect_, "trainLossGraph", tr("train"), kTrainColor, true);
    devLoss_ = makeGraph(this, lossRect_, "devLossGraph", tr("dev"), kDevColor, true);
    testLoss_ = makeGraph(this, lossRect_, "testLossGraph", tr("test (best-dev weights)"), kTestColor, false);
    trainMetric_ = makeGraph(this, metricRect_, "trainMetricGraph", tr("train"), kTrainColor, true);
    devMetric_ = makeGraph(this, metricRect_, "devMetricGraph", tr("dev"), kDevColor, true);
    devMetric_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kDevColor, 5));
    devLoss_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kDevColor, 5));
    testMetric_ = makeGraph(this, metricRect_, "testMetricGraph", tr("test (best-dev weights)"), kTestColor,
                              false);
    // One legend entry per split; the accuracy graphs share the loss graphs' colours.
    trainLoss_->addToLegend(legend_);
    devLoss_->addToLegend(legend_);
    testLoss_->addToLegend(legend_);

    redrawTimer_ = new QTimer(this);
    redrawTimer_->setSingleShot(true);
    connect(redrawTimer_, &QTimer::timeout, this, [this] {
        sinceRedraw_.start();
        rescale();
    });
    clear();
}

void TrainingCurvesPlot::clear()
{
    for (QCPGraph* graph : {trainLoss_, devLoss_, testLoss_, trainMetric_, devMetric_, testMetric_})
        graph->data()->clear();
    plannedSteps_ = 0;
    setMetric(QStringLiteral("accuracy"));
    if (redrawTimer_)
        redrawTimer_->stop();
    sinceRedraw_.invalidate(); // the next points are drawn at once
    rescale();
}

void TrainingCurvesPlot::setTitle(const QString& title, const QString& subtitle)
{
    title_->setText(title);
    subtitle_->setText(subtitle);
    replot(rpQueuedReplot);
}

QString TrainingCurvesPlot::title() const
{
    return title_->text();
}

QString TrainingCurvesPlot::subtitle() const
{
    return subtitle_->text();
}

void TrainingCurvesPlot::setPlannedSteps(int steps)
{
    plannedSteps_ = std::max(0, steps);
    rescale();
}

void TrainingCurvesPlot::setMetric(const QString& metric)
{
    metric_ = metric;
    metricRect_->axis(QCPAxis::atLeft)->setLabel(metric == QLatin1String("rmse")          ? tr("RMSE (target units)")
                                                 : metric == QLatin1String("bleu")        ? tr("BLEU (sacreBLEU)")
                                                 : metric == QLatin1String("repeat_loss") ? tr("loss on the repeated tokens (nats)")
                                                                                          : tr("accuracy (%)"));
}

QCPGraph* TrainingCurvesPlot::graphFor(const MetricPoint& point) const
{
    const bool loss = point.name == "loss";
    if (!loss && QString::fromStdString(point.name) != metric_)
        return nullptr; // other metrics (macro-F1, MAE, MAPE, learning rate) are not drawn here
    if (point.split == "train")
        return loss ? trainLoss_ : trainMetric_;
    if (point.split == "dev")
        return loss ? devLoss_ : devMetric_;
    if (point.split == "test")
        return loss ? testLoss_ : testMetric_;
    return nullptr;
}

void TrainingCurvesPlot::addMetrics(const std::vector<MetricPoint>& points)
{
    // A translation run is read by its BLEU (0-100), not by the accuracy lists rank it by: its first BLEU point
    // switches the panel (whatever of the same evaluation came before it).
    // A repeat task (the induction-heads lesson) is read by its loss on the repeated tokens, the same way.
    for (const char* first : {"bleu", "repeat_loss"})
        if (metric_ != QLatin1String(first) &&
            std::any_of(points.begin(), points.end(), [first](const MetricPoint& p) { return p.name == first; })) {
            for (QCPGraph* graph : {trainMetric_, devMetric_, testMetric_})
                graph->data()->clear();
            setMetric(QLatin1String(first));
        }
    for (const auto& point : points) {
        // A time-series run reports RMSE, never accuracy: its first RMSE point switches the panel.
        if (point.name == "rmse" && metric_ != QLatin1String("rmse") && devMetric_->data()->isEmpty() &&
            trainMetric_->data()->isEmpty())
            setMetric(QStringLiteral("rmse"));
        if (!std::isfinite(point.value))
            continue; // a diverged run's NaN would wreck the axis ranges; the run status says it
        if (QCPGraph* graph = graphFor(point))
            graph->addData(point.step, point.name == "accuracy" ? 100.0 * point.value : point.value);
    }
    // A live run delivers points tens of times a second; redrawing at each took GUI-thread time from
    // LibTorch's threads on a small machine (attnlab-bench-window). So at most one redraw per
    // kLiveRedrawMs while points stream; the run's test point (its end) is drawn at once.
    const bool end = std::any_of(points.begin(), points.end(), [](const MetricPoint& p) { return p.split == "test"; });
    if (end || !sinceRedraw_.isValid() || sinceRedraw_.elapsed() >= kLiveRedrawMs) {
        redrawTimer_->stop();
        sinceRedraw_.start();
        rescale();
    } else if (!redrawTimer_->isActive()) {
        redrawTimer_->start(static_cast<int>(kLiveRedrawMs - sinceRedraw_.elapsed()));
    }
}

void TrainingCurvesPlot::setMetrics(const std::vector<MetricPoint>& points)
{
    const int planned = plannedSteps_;
    clear();
    plannedSteps_ = planned;
    addMetrics(points);
}

void TrainingCurvesPlot::rescale()
{
    double lastStep = plannedSteps_;
    for (QCPGraph* graph : {trainLoss_, devLoss_, testLoss_, trainMetric_, devMetric_, testMetric_}) {
        if (!graph->data()->isEmpty())
            lastStep = std::max(lastStep, (graph->data()->constEnd() - 1)->key);
    }
    const QCPRange steps(0, std::max(1.0, lastStep * 1.02));
    lossRect_->axis(QCPAxis::atBottom)->setRange(steps);
    metricRect_->axis(QCPAxis::atBottom)->setRange(steps);

    // Loss: fit the data (a range from 0 would flatten the interesting part of the curve).
    double low = std::numeric_limits<double>::max(), high = std::numeric_limits<double>::lowest();
    bool any = false;
    for (QCPGraph* graph : {trainLoss_, devLoss_, testLoss_})
        any = CurveAxes::widenBy(graph, low, high) || any;
    if (any) {
        const double pad = std::max(0.08 * (high - low), 0.02 * std::max(std::abs(high), 1e-3));
        lossRect_->axis(QCPAxis::atLeft)->setRange(std::max(0.0, low - pad), high + pad);
    } else {
        lossRect_->axis(QCPAxis::atLeft)->setRange(0, 1);
    }

    if (metric_ == QLatin1String("rmse") || metric_ == QLatin1String("repeat_loss")) { // an error: fit the data, like the loss
        low = std::numeric_limits<double>::max();
        high = std::numeric_limits<double>::lowest();
        any = false;
        for (QCPGraph* graph : {trainMetric_, devMetric_, testMetric_})
            any = CurveAxes::widenBy(graph, low, high) || any;
        const double pad = any ? std::max(0.08 * (high - low), 0.02 * std::max(std::abs(high), 1e-3)) : 0.0;
        metricRect_->axis(QCPAxis::atLeft)->setRange(any ? std::max(0.0, low - pad) : 0.0, any ? high + pad : 1.0);
        replot(rpQueuedReplot);
        return;
    }
    low = 100;
    high = 0;
    any = false;
    for (QCPGraph* graph : {trainMetric_, devMetric_, testMetric_})
        any = CurveAxes::widenBy(graph, low, high) || any;
    if (any)
        metricRect_->axis(QCPAxis::atLeft)->setRange(std::max(0.0, std::floor(low / 10) * 10 - 5),
                                                       std::min(105.0, std::ceil(high / 10) * 10 + 5));
    else
        metricRect_->axis(QCPAxis::atLeft)->setRange(0, 100);
    replot(rpQueuedReplot);
}

} // namespace attnlab::ui
