#include "core/results/RepeatStatistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab {

double RepeatStatistics::mean() const
{
    if (values_.empty())
        return 0.0;
    double sum = 0.0;
    for (double v : values_)
        sum += v;
    return sum / static_cast<double>(values_.size());
}

double RepeatStatistics::sampleStd() const
{
    if (values_.size() < 2)
        return 0.0;
    const double m = mean();
    double squares = 0.0;
    for (double v : values_)
        squares += (v - m) * (v - m);
    return std::sqrt(squares / static_cast<double>(values_.size() - 1));
}

double RepeatStatistics::best(bool higherIsBetter) const
{
    if (values_.empty())
        return 0.0;
    return higherIsBetter ? *std::max_element(values_.begin(), values_.end()) : *std::min_element(values_.begin(), values_.end());
}

std::string RepeatStatistics::format(double scale, int decimals) const
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f ± %.*f", decimals, mean() * scale, decimals, sampleStd() * scale);
    return text;
}

} // namespace attnlab
