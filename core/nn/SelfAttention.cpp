#include "core/nn/SelfAttention.h"

#include <cmath>

namespace attnlab {

SelfAttentionImpl::SelfAttentionImpl(int dModel, int heads, int rprClip, bool reluProjections)
    : heads_(heads), rprClip_(rprClip), relu_(reluProjections)
{
    TORCH_CHECK(heads > 0 && dModel % heads == 0, "heads (", heads, ") must divide d_model (", dModel, ")");
    query_ = register_module("query", torch::nn::Linear(dModel, dModel));
    key_ = register_module("key", torch::nn::Linear(dModel, dModel));
    value_ = register_module("value", torch::nn::Linear(dModel, dModel));
    if (rprClip_ > 0) {
        // w^K and w^V of eq. 3.8-3.9: 2k+1 vectors of the head size, shared by the heads (Shaw et al.).
        const int64_t headSize = dModel / heads;
        relKeys_ = register_parameter("rel_keys", torch::empty({2 * rprClip_ + 1, headSize}));
        relValues_ = register_parameter("rel_values", torch::empty({2 * rprClip_ + 1, headSize}));
        const double bound = 1.0 / std::sqrt(static_cast<double>(headSize));
        torch::NoGradGuard noGrad;
        relKeys_.uniform_(-bound, bound);
        relValues_.uniform_(-bound, bound);
    }
}

torch::Tensor SelfAttentionImpl::relativeIndex(int64_t length, int rprClip, const torch::Device& device)
{
    auto positions = torch::arange(length, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto distance = positions.unsqueeze(0) - positions.unsqueeze(1); // [i][j] = j - i
    return distance.clamp(-rprClip, rprClip) + rprClip;
}

SelfAttentionImpl::Result SelfAttentionImpl::attend(const torch::Tensor& q, const torch::Tensor& k,
                                                    const torch::Tensor& v, const torch::Tensor& mask,
                                                    const torch::Tensor& relKeys,
                                                    const torch::Tensor& relValues, int rprClip)
{
    const int64_t batch = q.size(0), heads = q.size(1), length = q.size(2), headSize = q.size(3);
    auto scores = torch::matmul(q, k.transpose(-2, -1)); // q_i . k_j
    torch::Tensor index;
    if (relKeys.defined()) {
        // q_i . a^K_ij, computed against the 2k+1 table rows once, then gathered per pair.
        index = relativeIndex(length, rprClip, q.device());
        auto perRow = torch::matmul(q, relKeys.t()); // [B, H, T, 2k+1]
        scores = scores + perRow.gather(3, index.expand({batch, heads, length, length}));
    }
    scores = scores / std::sqrt(static_cast<double>(headSize));
    // Padded keys get no weight: -1e9 underflows to exactly 0 after exp.
    auto keyMask = mask.view({batch, 1, 1, length});
    scores = scores.masked_fill(keyMask.logical_not(), -1e9);
    auto weights = torch::softmax(scores, -1);
    auto output = torch::matmul(weights, v);
    if (relValues.defined()) {
        // sum_j alpha_ij a^V_ij = sum_r (sum_{j: idx(i,j)=r} alpha_ij) w^V_r: scatter weights into the table rows.
        auto perRow = torch::zeros({batch, heads, length, 2 * rprClip + 1}, weights.options());
        perRow = perRow.scatter_add(3, index.expand({batch, heads, length, length}), weights);
        output = output + torch::matmul(perRow, relValues);
    }
    return {output, weights};
}

SelfAttentionImpl::Result SelfAttentionImpl::forward(const torch::Tensor& x, const torch::Tensor& mask)
{
    const int64_t batch = x.size(0), length = x.size(1), dModel = x.size(2);
    const int64_t headSize = dModel / heads_;
    auto project = [&](torch::nn::Linear& layer) {
        auto y = layer(x);
        if (relu_)
            y = torch::relu(y);
        return y.view({batch, length, heads_, headSize}).transpose(1, 2); // [B, H, T, dh]
    };
    auto q = project(query_), k = project(key_), v = project(value_);
    auto result = attend(q, k, v, mask, relKeys_, relValues_, rprClip_);
    result.output = result.output.transpose(1, 2).reshape({batch, length, dModel});
    return result;
}

} // namespace attnlab
