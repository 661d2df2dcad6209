#pragma once
#include <QString>

class QCPAxisRect;
class QCPGraph;
class QCustomPlot;

namespace attnlab::ui {

// What the live curve plots (one run: TrainingCurvesPlot; several: LiveComparisonPlot) share: an axis rect
// with a full box, and the value span of graphs for fitting an axis to the data.
class CurveAxes {
public:
    static QCPAxisRect* makeRect(QCustomPlot* plot, const QString& yLabel, const QString& xLabel);
    // Widens [low, high] by the graph's values; false when it has none.
    static bool widenBy(const QCPGraph* graph, double& low, double& high);
};

} // namespace attnlab::ui
