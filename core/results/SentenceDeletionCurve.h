#pragma once
#include <string>
#include <vector>

namespace attnlab {

// One sentence's deletion curve for one explanation method (FaithfulnessEvaluator::deletionCurves; the
// Explorer draws it under the typed sentence): the explained class's probability as the sentence's tokens
// are replaced by <unk> one at a time, the method's most important token first.
struct SentenceDeletionCurve {
    std::string method;
    std::vector<int> order;            // token indices, most important first (ties: earlier first)
    std::vector<double> probabilities; // T + 1 values: p(target) with 0, 1, ..., T tokens replaced
    double aopc = 0;                   // mean over those T + 1 values of p(0 replaced) - p(k replaced)
};

} // namespace attnlab
