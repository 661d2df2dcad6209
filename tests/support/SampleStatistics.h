#pragma once
// Statistics the tests compute by hand to check what the engine and views report.
#include <cmath>
#include <vector>

namespace attnlab::testing {

// Sample standard deviation (n - 1), as the thesis reports repeats.
inline double sampleStd(const std::vector<double>& v)
{
    double mean = 0;
    for (double x : v)
        mean += x;
    mean /= static_cast<double>(v.size());
    double s = 0;
    for (double x : v)
        s += (x - mean) * (x - mean);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
}

} // namespace attnlab::testing
