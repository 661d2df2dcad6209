#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// Which heads of a pretrained language model copy, measured as TransformerLens measures induction heads (Olsson et
// al. 2022): sequences of `length` random ordinary tokens, each repeated once after itself (after one start token),
// read in one pass. For a query in the repeat, at position i:
//   induction score      = its weight on position i - length + 1, the token after that token's first occurrence;
//   previous-token score = its weight on position i - 1;
// each the mean over the repeat's queries and the sequences. A model that copies predicts the repeat: its loss there
// falls far below the first half's (random tokens: no better than its guess).
struct HeadCopyScores {
    int layers = 0, heads = 0;
    int length = 0, sequences = 0;
    unsigned long long seed = 1;
    std::vector<std::vector<double>> induction, previousToken; // [layer][head]
    double firstHalfLoss = 0.0; // mean cross-entropy (nats) predicting the first copy's tokens 2 .. length
    double repeatedHalfLoss = 0.0; // the same for the repeat's tokens 2 .. length (the first of them is not a copy yet)
    std::vector<std::pair<int, int>> ablated; // 0-based (layer, head) knocked out while measuring; empty: none
    std::string ablation; // "zero" | "mean" when any
    double seconds = 0.0;

    std::pair<int, int> bestInduction() const; // (layer, head), 0-based
    std::pair<int, int> bestPreviousToken() const;
    // The `count` highest of `scores` (induction or previousToken), best first, ties in layer-then-head order.
    static std::vector<std::pair<int, int>> ranked(const std::vector<std::vector<double>>& scores, std::size_t count);
    std::string csv() const; // layer,head,induction_score,previous_token_score; heads 1-based
    std::string toJson() const; // heads 1-based, as the window and --ablate name them
};

} // namespace attnlab
