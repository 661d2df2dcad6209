#include "core/nn/layers/ScaledDotProductAttention.h"

#include "core/nn/layers/AttentionPermutation.h"
#include "core/nn/layers/BatchedMatmul.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attnlab {

torch::Tensor ScaledDotProductAttention::relativeIndex(int64_t queries, int64_t keys, int rprClip, int64_t firstQuery,
                                                       const torch::Device& device)
{
    const auto options = torch::TensorOptions().dtype(torch::kLong).device(device);
    auto distance = torch::arange(keys, options).unsqueeze(0) - torch::arange(firstQuery, firstQuery + queries, options).unsqueeze(1); // [i][j] = j - i
    return distance.clamp(-rprClip, rprClip) + rprClip;
}

torch::Tensor ScaledDotProductAttention::sharedByQueryHeads(const torch::Tensor& kv, int64_t queryHeads)
{
    const int64_t kvHeads = kv.size(1);
    if (kvHeads == queryHeads)
        return kv;
    if (kvHeads < 1 || queryHeads % kvHeads != 0)
        throw std::invalid_argument("attention: " + std::to_string(kvHeads) + " key/value heads do not divide " +
                                    std::to_string(queryHeads) + " query heads");
    const int64_t group = queryHeads / kvHeads;
    // [B, H_kv, S, dh] -> [B, H_kv, G, S, dh] (a view) -> [B, H, S, dh]: head h*G + g is kv head h.
    return kv.unsqueeze(2)
        .expand({kv.size(0), kvHeads, group, kv.size(2), kv.size(3)})
        .reshape({kv.size(0), queryHeads, kv.size(2), kv.size(3)});
}

ScaledDotProductAttention::Result ScaledDotProductAttention::apply(const torch::Tensor& q, const torch::Tensor& kIn,
                                                                   const torch::Tensor& vIn,
                                                                   const AttentionTerms& terms)
{
    const int64_t batch = q.size(0), heads = q.size(1), queries = q.size(2), headSize = q.size(3), keys = kIn.size(2);
    const auto k = sharedByQueryHeads(kIn, heads), v = sharedByQueryHeads(vIn, heads);
    auto scores = BatchedMatmul::apply(q, k, /*transposeB=*/true); // q_i . k_j  [B, H, T, S]
    torch::Tensor index;
    if (terms.relativeKeys.defined() || terms.relativeValues.defined())
        index = relativeIndex(queries, keys, terms.rprClip, terms.firstQuery, q.device()).expand({batch, heads, queries, keys});
    if (terms.relativeKeys.defined()) // q_i . a^K_ij, computed against the 2k+1 table rows once, then gathered per pair
        scores = scores + torch::matmul(q, terms.relativeKeys.t()).gather(3, index);
    scores = scores / std::sqrt(static_cast<double>(headSize));
    if (terms.bias.defined())
        scores = scores + terms.bias.unsqueeze(0);
    if (terms.keyMask.defined()) // padded keys get no weight: -1e9 underflows to exactly 0 after exp
        scores = scores.masked_fill(terms.keyMask.view({batch, 1, 1, keys}).logical_not(), -1e9);
    auto weights = torch::softmax(scores, -1);
    if (terms.permutable)
        weights = AttentionPermutation::applyTo(weights); // as it is, unless a permutation test runs
    auto output = BatchedMatmul::apply(weights, v);
    if (terms.relativeValues.defined()) {
        // sum_j alpha_ij a^V_ij = sum_r (sum_{j: idx(i,j)=r} alpha_ij) w^V_r: scatter weights into the table rows.
        auto perRow = torch::zeros({batch, heads, queries, terms.relativeValues.size(0)}, weights.options()).scatter_add(3, index, weights);
        output = output + torch::matmul(perRow, terms.relativeValues);
    }
    return {output, weights};
}

} // namespace attnlab
