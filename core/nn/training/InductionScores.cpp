#include "core/nn/training/InductionScores.h"

#include <stdexcept>

namespace attnlab {
namespace {

std::pair<double, std::pair<int, int>> best(const std::vector<std::vector<double>>& sums, double queries)
{
    std::pair<double, std::pair<int, int>> top{0.0, {0, 0}};
    for (std::size_t l = 0; l < sums.size(); ++l)
        for (std::size_t h = 0; h < sums[l].size(); ++h)
            if (queries > 0 && sums[l][h] / queries > top.first)
                top = {sums[l][h] / queries, {static_cast<int>(l), static_cast<int>(h)}};
    return top;
}

} // namespace

InductionScores::InductionScores(int repeatFrom, int repeatTo) : repeatFrom_(repeatFrom), repeatTo_(repeatTo)
{
    if (repeatFrom < 2 || repeatTo <= repeatFrom)
        throw std::invalid_argument("induction scores: no repeat (repeat from " + std::to_string(repeatFrom) + " to " +
                                    std::to_string(repeatTo) + ")");
}

void InductionScores::add(const torch::Tensor& blocks, const std::vector<torch::Tensor>& attention)
{
    if (attention.empty())
        return;
    const auto ids = blocks.to(torch::kCPU).to(torch::kLong).contiguous();
    const auto id = ids.accessor<std::int64_t, 2>();
    const std::int64_t rows = ids.size(0), width = ids.size(1), seen = attention.front().size(-1);
    const std::int64_t L = repeatFrom_ - 1; // where the copy starts
    // (block, query, induction key) of every scored query; the previous-token key is query - 1.
    std::vector<std::int64_t> b, query, key;
    for (std::int64_t r = 0; r < rows; ++r) {
        std::int64_t length = 0; // the repeat's l: tokens L .. L+l-1 equal L-l .. L-1, the longest such l
        for (std::int64_t l = std::min(L, width - L); l >= 1 && length == 0; --l) {
            bool same = true;
            for (std::int64_t i = 0; i < l && same; ++i)
                same = id[r][L + i] == id[r][L - l + i];
            if (same)
                length = l;
        }
        if (length == 0)
            continue;
        // Query p reads the copy of token p - l; its next token, p + 1, is the copy of p - l + 1.
        for (std::int64_t p = repeatFrom_ - 1; p < repeatTo_ - 1 && p + 1 < L + length && p < seen; ++p) {
            b.push_back(r);
            query.push_back(p);
            key.push_back(p - length + 1);
        }
    }
    if (b.empty())
        return;
    const auto bIdx = torch::tensor(b), qIdx = torch::tensor(query), kIdx = torch::tensor(key);
    if (induction_.empty()) {
        induction_.assign(attention.size(), std::vector<double>(static_cast<std::size_t>(attention.front().size(1)), 0.0));
        previous_ = induction_;
    }
    for (std::size_t layer = 0; layer < attention.size() && layer < induction_.size(); ++layer) {
        // [B, H, T, T] -> [B, T(query), T(key), H]: one gather picks every head's weight of each (block, query, key).
        const auto a = attention[layer].detach().to(torch::kCPU).to(torch::kDouble).permute({0, 2, 3, 1});
        const auto onInduction = a.index({bIdx, qIdx, kIdx}).sum(0);     // [H]
        const auto onPrevious = a.index({bIdx, qIdx, qIdx - 1}).sum(0);  // [H]
        for (std::size_t h = 0; h < induction_[layer].size(); ++h) {
            induction_[layer][h] += onInduction[static_cast<std::int64_t>(h)].item<double>();
            previous_[layer][h] += onPrevious[static_cast<std::int64_t>(h)].item<double>();
        }
    }
    queries_ += static_cast<double>(b.size());
}

double InductionScores::induction(int layer, int head) const
{
    return queries_ > 0 ? induction_.at(static_cast<std::size_t>(layer)).at(static_cast<std::size_t>(head)) / queries_ : 0.0;
}

double InductionScores::previousToken(int layer, int head) const
{
    return queries_ > 0 ? previous_.at(static_cast<std::size_t>(layer)).at(static_cast<std::size_t>(head)) / queries_ : 0.0;
}

std::pair<double, std::pair<int, int>> InductionScores::bestInduction() const
{
    return best(induction_, queries_);
}

std::pair<double, std::pair<int, int>> InductionScores::bestPreviousToken() const
{
    return best(previous_, queries_);
}

std::vector<std::pair<std::string, double>> InductionScores::metrics() const
{
    std::vector<std::pair<std::string, double>> m;
    if (queries_ <= 0)
        return m;
    m.emplace_back("induction_score", bestInduction().first);
    m.emplace_back("previous_token_score", bestPreviousToken().first);
    for (int l = 0; l < layers(); ++l)
        for (int h = 0; h < heads(); ++h)
            m.emplace_back("induction_score.L" + std::to_string(l + 1) + "H" + std::to_string(h + 1), induction(l, h));
    return m;
}

} // namespace attnlab
