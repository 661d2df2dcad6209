#include "core/analysis/CurveSmoothing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnlab {

std::vector<double> CurveSmoothing::exponential(const std::vector<double>& values, double weight)
{
    if (!(weight >= 0.0 && weight < 1.0))
        throw std::invalid_argument("smoothing weight must be in [0, 1), got " + std::to_string(weight));
    if (weight == 0.0 || std::all_of(values.begin(), values.end(), [&](double v) { return v == values.front(); }))
        return values;
    std::vector<double> smoothed(values.size());
    double last = 0.0;
    int accumulated = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) {
            smoothed[i] = values[i];
            continue;
        }
        last = last * weight + (1.0 - weight) * values[i];
        ++accumulated;
        smoothed[i] = last / (1.0 - std::pow(weight, accumulated));
    }
    return smoothed;
}

} // namespace attnlab
