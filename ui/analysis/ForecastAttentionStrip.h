#pragma once
#include "ui/analysis/RunCurves.h"

#include <QtCore/QString>

class QCustomPlot;
class QCPAxisRect;
class QCPColorMap;
class QCPMarginGroup;
class QCPTextElement;

namespace attnlab::ui {

// The attention under a forecast's time axis: a strip below the plot of a compare panel, one column per test
// row and one row per step of that prediction's window (the step just before it at the bottom, the oldest at
// the top), white for the smallest weight to dark blue for the largest (the caption above says both), as the
// attention heatmaps. Its x axis follows the
// plot's (zoom and drag move both) and its left edge lines up with the plot's.
class ForecastAttentionStrip {
public:
    // `above`: the plot's axis rect, whose x axis the strip follows.
    ForecastAttentionStrip(QCustomPlot* plot, QCPAxisRect* above);
    // Rows to draw (`runLabel` names their run on the strip's axis), or none: the strip leaves the layout.
    void show(const RunCurves::ForecastAttention& attention, const QString& runLabel);
    QCPColorMap* map() const { return map_; }

private:
    void remove();

    QCustomPlot* plot_;
    QCPAxisRect* above_;
    QCPTextElement* caption_ = nullptr; // what the strip shows, and its colours' range
    QCPAxisRect* rect_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPMarginGroup* margins_ = nullptr;
};

} // namespace attnlab::ui
