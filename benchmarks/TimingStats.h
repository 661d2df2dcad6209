#pragma once
// Median, 90th percentile and maximum of a benchmark's timings (not empty).
#include <algorithm>
#include <vector>

namespace attnlab::bench {

struct TimingStats {
    double median = 0.0, p90 = 0.0, max = 0.0;

    static TimingStats of(std::vector<double> v)
    {
        std::sort(v.begin(), v.end());
        return {v[v.size() / 2], v[v.size() * 9 / 10], v.back()};
    }
};

} // namespace attnlab::bench
