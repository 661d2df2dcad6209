#pragma once
#include <vector>

namespace attnlab {

// One regression example of a multivariate time series: T steps of the driving series, the target's
// own history over the same steps, and the value to predict. Values are already scaled.
struct SeriesWindow {
    std::vector<float> drivers;       // T x F, row-major (step-major)
    std::vector<float> targetHistory; // T values; the last step's unknown target is filled with the previous value (thesis 6.3)
    float target = 0.0f;              // y_T, scaled
    std::vector<float> ahead;         // y_T .. y_{T+H-1}, scaled (ahead[0] == target); H = 1: {target}
};

} // namespace attnlab
