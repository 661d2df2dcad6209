#pragma once
#include <vector>

namespace attnlab {

// TensorBoard's scalar smoothing, so a curve here looks like the same curve there: an exponential
// moving average with weight w in [0, 1), de-biased by 1 - w^k after k finite values (without it the
// first points are pulled towards 0). Non-finite values pass through and do not enter the average; a
// constant series stays constant. w = 0 returns the values unchanged.
class CurveSmoothing {
public:
    static std::vector<double> exponential(const std::vector<double>& values, double weight);
};

} // namespace attnlab
