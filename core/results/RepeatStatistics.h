#pragma once
#include <string>
#include <vector>

namespace attnlab {

// Mean and sample standard deviation (n - 1, as the thesis' "mean (std) of 5 runs") of one metric over
// repeated runs of a configuration.
class RepeatStatistics {
public:
    explicit RepeatStatistics(std::vector<double> values) : values_(std::move(values)) {}
    std::size_t count() const { return values_.size(); }
    double mean() const;
    double sampleStd() const; // 0 for fewer than two values
    double best(bool higherIsBetter) const;
    // "48.1 ± 0.4" with the given decimals, values multiplied by scale (100 for percentages).
    std::string format(double scale, int decimals) const;

private:
    std::vector<double> values_;
};

} // namespace attnlab
