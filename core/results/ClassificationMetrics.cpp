#include "core/results/ClassificationMetrics.h"

#include <stdexcept>
#include <string>

namespace attnlab {

ClassificationMetrics::ClassificationMetrics(std::vector<std::vector<std::int64_t>> confusion) : confusion_(std::move(confusion))
{
    for (const auto& row : confusion_)
        if (row.size() != confusion_.size())
            throw std::invalid_argument("confusion matrix: expected " + std::to_string(confusion_.size()) + " columns per row");
}

ClassificationMetrics ClassificationMetrics::fromPredictions(const std::vector<int>& truth, const std::vector<int>& predicted,
                                                             int classes)
{
    if (truth.size() != predicted.size())
        throw std::invalid_argument("metrics: " + std::to_string(truth.size()) + " labels but " +
                                    std::to_string(predicted.size()) + " predictions");
    std::vector<std::vector<std::int64_t>> confusion(classes, std::vector<std::int64_t>(classes, 0));
    for (std::size_t i = 0; i < truth.size(); ++i) {
        if (truth[i] < 0 || truth[i] >= classes || predicted[i] < 0 || predicted[i] >= classes)
            throw std::invalid_argument("metrics: class out of range at example " + std::to_string(i));
        ++confusion[truth[i]][predicted[i]];
    }
    return ClassificationMetrics(std::move(confusion));
}

std::int64_t ClassificationMetrics::total() const
{
    std::int64_t n = 0;
    for (const auto& row : confusion_)
        for (auto v : row)
            n += v;
    return n;
}

double ClassificationMetrics::accuracy() const
{
    std::int64_t correct = 0;
    for (int c = 0; c < classes(); ++c)
        correct += confusion_[c][c];
    const auto n = total();
    return n ? static_cast<double>(correct) / n : 0.0;
}

double ClassificationMetrics::precision(int c) const
{
    std::int64_t predicted = 0;
    for (int t = 0; t < classes(); ++t)
        predicted += confusion_[t][c];
    return predicted ? static_cast<double>(confusion_[c][c]) / predicted : 0.0;
}

double ClassificationMetrics::recall(int c) const
{
    std::int64_t present = 0;
    for (int p = 0; p < classes(); ++p)
        present += confusion_[c][p];
    return present ? static_cast<double>(confusion_[c][c]) / present : 0.0;
}

double ClassificationMetrics::f1(int c) const
{
    const double p = precision(c), r = recall(c);
    return p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
}

double ClassificationMetrics::macroF1() const
{
    if (classes() == 0)
        return 0.0;
    double sum = 0.0;
    for (int c = 0; c < classes(); ++c)
        sum += f1(c);
    return sum / classes();
}

} // namespace attnlab
