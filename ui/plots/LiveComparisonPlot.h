#pragma once
#include "core/results/MetricPoint.h"

#include <qcustomplot.h>

#include <vector>

namespace attnlab::ui {

// Several runs trained at once, overlaid as they grow: train loss (top) and the dev headline metric
// (bottom: accuracy in % for classifiers, RMSE for time series, chosen by the first such point), one
// colour per run and one legend entry per run ("model + position"); each run's test point is drawn at
// the end. The graphs are reached by their object names: trainLossGraph<i>, devMetricGraph<i>,
// testMetricGraph<i>.
class LiveComparisonPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit LiveComparisonPlot(QWidget* parent = nullptr);

    void clear(); // no runs
    // Run `index` (0, 1, ... in order) with its legend text and colour.
    void addRun(const QString& label, const QColor& colour);
    int runCount() const { return static_cast<int>(runs_.size()); }
    void setTitle(const QString& title);
    QString title() const;
    // The x axis spans the longest planned run while the runs grow into it: each call can only lengthen it
    // (runs of a comparison add their plans one by one; clear() starts again).
    void setPlannedSteps(int steps);
    void addMetrics(int index, const std::vector<MetricPoint>& points);
    void clearMetrics(int index); // run `index` without points (a replay draws them again up to its step)
    QString metricName() const { return metric_; } // "accuracy", "rmse" or "bleu"

private:
    struct Run {
        QCPGraph* trainLoss;
        QCPGraph* devMetric;
        QCPGraph* testMetric;
    };
    void rescale();
    void setMetric(const QString& metric);

    QCPTextElement* title_;
    QCPLegend* legend_;
    QCPAxisRect* lossRect_;
    QCPAxisRect* metricRect_;
    std::vector<Run> runs_;
    int plannedSteps_ = 0;
    QString metric_;
};

} // namespace attnlab::ui
