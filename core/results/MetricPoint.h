#pragma once
#include <string>

namespace attnlab {

// One value of one metric on one split at one step, e.g. (120, "dev", "accuracy", 0.91).
struct MetricPoint {
    int step = 0;
    std::string split;
    std::string name;
    double value = 0.0;
};

} // namespace attnlab
