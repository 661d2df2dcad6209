#pragma once
// The tiny time-series model the regression and horizon suites build: d_model 16, 2 heads, RPR clip 3, 3 drivers,
// a window of 5, no dropout, predicting `horizon` steps ahead.
#include "core/config/ModelConfig.h"

#include <string>

namespace attnlab::testing {

inline ModelConfig tinyRegressor(const std::string& model, const std::string& position = "none", int horizon = 1)
{
    ModelConfig c;
    c.model = model;
    c.position = position;
    c.dModel = 16;
    c.heads = 2;
    c.rprClip = 3;
    c.dropoutKeep = 1.0;
    c.drivers = 3;
    c.window = 5;
    c.horizon = horizon;
    return c;
}

} // namespace attnlab::testing
