#pragma once
#include "core/results/MetricPoint.h"

#include <QElapsedTimer>
#include <qcustomplot.h>

#include <vector>

class QTimer;

namespace attnlab::ui {

// Loss (top) and the run's headline metric (bottom) against the training step: accuracy in % for a
// classifier, RMSE in the target's units for a time-series model (chosen by the first such point that
// arrives); train and dev curves in each, plus the test point measured at the end. Fed live by the
// worker or from the run store.
class TrainingCurvesPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit TrainingCurvesPlot(QWidget* parent = nullptr);

    void clear();
    void setTitle(const QString& title, const QString& subtitle = {});
    // The x axis spans the planned steps while a run grows into it (0: fit to the data).
    void setPlannedSteps(int steps);
    void addMetrics(const std::vector<MetricPoint>& points);
    void setMetrics(const std::vector<MetricPoint>& points); // replaces everything shown

    // The graphs are reached by their object names: trainLossGraph, devLossGraph, testLossGraph,
    // trainMetricGraph, devMetricGraph, testMetricGraph.
    QString title() const;
    QString subtitle() const;
    QString metricName() const { return metric_; } // "accuracy", "rmse" or "bleu" (translation)

private:
    QCPGraph* graphFor(const MetricPoint& point) const;
    void rescale();
    void setMetric(const QString& metric);

    QCPTextElement* title_;
    QCPTextElement* subtitle_;
    QCPLegend* legend_;
    QCPAxisRect* lossRect_;
    QCPAxisRect* metricRect_;
    QCPGraph* trainLoss_;
    QCPGraph* devLoss_;
    QCPGraph* testLoss_;
    QCPGraph* trainMetric_;
    QCPGraph* devMetric_;
    QCPGraph* testMetric_;
    int plannedSteps_ = 0;
    QString metric_;
    static constexpr qint64 kLiveRedrawMs = 200; // a live run's curves redraw at most 5 times a second
    QTimer* redrawTimer_ = nullptr;
    QElapsedTimer sinceRedraw_;
};

} // namespace attnlab::ui
