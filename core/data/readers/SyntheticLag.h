#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/SeriesDataset.h"

namespace attnlab {

// A time series with a known answer: F smooth random driving series x_k, and a target
//   y_t = 0.6 y_{t-1} + 0.8 x_d(t - lag) + noise
// that depends on one driver d at one lag. A model that attends to step T-1-lag of driver d has found
// the truth (SeriesDataset::trueDriver / trueLag). Deterministic by seed.
class SyntheticLag {
public:
    static SeriesDataset generate(const DatasetOptions& options);
};

} // namespace attnlab
