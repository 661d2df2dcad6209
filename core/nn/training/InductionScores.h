#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// Which heads of a model trained on repeated random sequences copy, scored as TransformerLens scores them on its
// repeated random tokens (Olsson et al. 2022), here with the repeat's distance varying from block to block:
//   induction score of a head      = the mean weight a repeated token's query puts on the token just after that
//                                    token's earlier occurrence (where the next token is to be read from);
//   previous-token score of a head = the mean weight the same queries put on the position just before them (the
//                                    first half of an induction circuit, a head of the layer below).
// The queries are those whose next token is always a copy (the dataset's repeatFrom .. repeatTo as targets). A
// block's repeat length l is read from its tokens: the longest l <= L (the copy starts at L = repeatFrom - 1) with
// tokens L .. L+l-1 equal to L-l .. L-1; a block where none matches is skipped. Chance is 1 / (query + 1) for a
// head that spreads its weight evenly.
class InductionScores {
public:
    // The dataset's repeatFrom and repeatTo (LanguageModelDataset). Throws std::invalid_argument when they make no
    // repeat (repeatFrom < 2 or repeatTo <= repeatFrom).
    InductionScores(int repeatFrom, int repeatTo);

    // Scores a batch: blocks [B, 2L] token ids (whole blocks; the model read their first 2L - 1), attention per layer
    // [B, H, T, T] (the model's for that input, any device).
    void add(const torch::Tensor& blocks, const std::vector<torch::Tensor>& attention);

    int layers() const { return static_cast<int>(induction_.size()); }
    int heads() const { return induction_.empty() ? 0 : static_cast<int>(induction_.front().size()); }
    double queries() const { return queries_; } // the (block, query) pairs scored
    // Mean weights, [layer][head]; 0 when nothing was scored.
    double induction(int layer, int head) const;
    double previousToken(int layer, int head) const;
    // The largest score and where: {score, {layer, head}}.
    std::pair<double, std::pair<int, int>> bestInduction() const;
    std::pair<double, std::pair<int, int>> bestPreviousToken() const;
    // Metrics for an evaluation: "induction_score" and "previous_token_score" (the best heads'), and each head's
    // as "induction_score.L<l>H<h>" (1-based, as the window names heads).
    std::vector<std::pair<std::string, double>> metrics() const;

private:
    int repeatFrom_, repeatTo_;
    double queries_ = 0.0;
    std::vector<std::vector<double>> induction_, previous_; // sums of weights, [layer][head]
};

} // namespace attnlab
