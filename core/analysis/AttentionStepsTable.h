#pragma once
#include "core/analysis/TableDocument.h"
#include "core/results/AttentionStepByStep.h"

namespace attnlab {

// One head's attention for one query (AttentionStepByStep) as a table a student reads left to right, one row per
// key j: the token, q . k_j, the position term (RPR's q . a_ij or ALiBi's -m |i - j|, where the technique adds one), the score after the division by sqrt(d_k), whether the mask hides
// it, the softmax weight and the weight the model's own forward pass used. The largest weight is bold. What the
// window's step-by-step view shows and exports (CSV, Markdown, LaTeX through TableWriter).
class AttentionStepsTable {
public:
    static TableDocument of(const AttentionStepByStep& steps);
    // The vectors of the query row: the input, q and the head's output, each "name: v0 v1 ... (n values)", the first
    // `shown` values; every value is in the JSON export.
    static std::string vectors(const AttentionStepByStep& steps, int shown = 8);
    // The largest |weight - model's weight| over the keys: how exactly the steps give back the model's row.
    static double largestDifference(const AttentionStepByStep& steps);
};

} // namespace attnlab
