#pragma once
#include "cli/PlotRenderer.h"

namespace attnlab::ui {

// `attnlab-cli runs plot` without a window: the compare view's panel (ComparePanel, CompareSeries) for
// one metric and split, saved by PlotExporter. Creates an offscreen QApplication when the process has
// none, so it runs on a machine without a display.
class CurvePlotRenderer : public PlotRenderer {
public:
    std::string render(const RunStore& store, const PlotRequest& request) override;
};

} // namespace attnlab::ui
