#include "ui/plots/CurveAxes.h"

#include <qcustomplot.h>

#include <algorithm>

namespace attnlab::ui {

QCPAxisRect* CurveAxes::makeRect(QCustomPlot* plot, const QString& yLabel, const QString& xLabel)
{
    auto* rect = new QCPAxisRect(plot);
    rect->axis(QCPAxis::atLeft)->setLabel(yLabel);
    rect->axis(QCPAxis::atBottom)->setLabel(xLabel);
    rect->axis(QCPAxis::atBottom)->setRange(0, 1);
    rect->setupFullAxesBox(true);
    return rect;
}

bool CurveAxes::widenBy(const QCPGraph* graph, double& low, double& high)
{
    bool found = false;
    const QCPRange range = graph->data()->valueRange(found);
    if (found) {
        low = std::min(low, range.lower);
        high = std::max(high, range.upper);
    }
    return found;
}

} // namespace attnlab::ui
