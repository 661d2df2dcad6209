#pragma once
#include <cstdint>
#include <vector>

namespace attnlab {

// Accuracy, per-class precision/recall/F1 and macro-F1 from a confusion matrix [true][predicted].
// A class never predicted has precision 0, one never present has recall 0, and F1 is 0 when
// precision + recall is 0 (the usual convention, as scikit-learn's zero_division=0).
class ClassificationMetrics {
public:
    explicit ClassificationMetrics(std::vector<std::vector<std::int64_t>> confusion);
    static ClassificationMetrics fromPredictions(const std::vector<int>& truth, const std::vector<int>& predicted,
                                                 int classes);

    const std::vector<std::vector<std::int64_t>>& confusion() const { return confusion_; }
    int classes() const { return static_cast<int>(confusion_.size()); }
    std::int64_t total() const;
    double accuracy() const;
    double precision(int c) const;
    double recall(int c) const;
    double f1(int c) const;
    double macroF1() const; // unweighted mean of the per-class F1

private:
    std::vector<std::vector<std::int64_t>> confusion_;
};

} // namespace attnlab
