#pragma once
#include "core/results/MetricPoint.h"

#include <qcustomplot.h>

#include <vector>

namespace attnlab::ui {

// Loss (top) and accuracy in % (bottom) against the training step, train and dev curves in each,
// plus the test point measured at the end. Fed live by the worker or from the run store.
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
    // trainAccuracyGraph, devAccuracyGraph, testAccuracyGraph.
    QString title() const;
    QString subtitle() const;

private:
    QCPGraph* graphFor(const MetricPoint& point) const;
    void rescale();

    QCPTextElement* title_;
    QCPTextElement* subtitle_;
    QCPLegend* legend_;
    QCPAxisRect* lossRect_;
    QCPAxisRect* accuracyRect_;
    QCPGraph* trainLoss_;
    QCPGraph* devLoss_;
    QCPGraph* testLoss_;
    QCPGraph* trainAccuracy_;
    QCPGraph* devAccuracy_;
    QCPGraph* testAccuracy_;
    int plannedSteps_ = 0;
};

} // namespace attnlab::ui
