#include "core/nn/layers/CrossAttention.h"

#include "core/nn/layers/BatchedMatmul.h"

#include <cmath>

namespace attnlab {

CrossAttentionImpl::CrossAttentionImpl(int dModel, int heads) : dModel_(dModel), heads_(heads)
{
    TORCH_CHECK(heads > 0 && dModel % heads == 0, "heads (", heads, ") must divide d_model (", dModel, ")");
    query_ = register_module("query", torch::nn::Linear(dModel, dModel));
    key_ = register_module("key", torch::nn::Linear(dModel, dModel));
    value_ = register_module("value", torch::nn::Linear(dModel, dModel));
    output_ = register_module("output", torch::nn::Linear(dModel, dModel));
}

std::pair<torch::Tensor, torch::Tensor> CrossAttentionImpl::keysValues(const torch::Tensor& memory)
{
    const int64_t batch = memory.size(0), sourceLength = memory.size(1), headSize = dModel_ / heads_;
    auto split = [&](const torch::Tensor& x) { // [B, S, d] -> [B, H, S, dh]
        return x.view({batch, sourceLength, heads_, headSize}).transpose(1, 2);
    };
    return {split(key_(memory)), split(value_(memory))};
}

CrossAttentionImpl::Result CrossAttentionImpl::attend(const torch::Tensor& target, const torch::Tensor& k, const torch::Tensor& v,
                                                      const torch::Tensor& memoryMask)
{
    const int64_t batch = target.size(0), targetLength = target.size(1), sourceLength = k.size(2);
    const int64_t headSize = dModel_ / heads_;
    auto q = query_(target).view({batch, targetLength, heads_, headSize}).transpose(1, 2); // [B, H, T, dh]
    auto scores = BatchedMatmul::apply(q, k, /*transposeB=*/true) / std::sqrt(static_cast<double>(headSize)); // [B, H, T, S]
    // Padded source tokens get no weight: -1e9 underflows to exactly 0 after exp.
    scores = scores.masked_fill(memoryMask.view({batch, 1, 1, sourceLength}).logical_not(), -1e9);
    auto weights = torch::softmax(scores, -1);
    auto heads = BatchedMatmul::apply(weights, v).transpose(1, 2).reshape({batch, targetLength, dModel_});
    return {output_(heads), weights};
}

CrossAttentionImpl::Result CrossAttentionImpl::forward(const torch::Tensor& target, const torch::Tensor& memory,
                                                       const torch::Tensor& memoryMask)
{
    const auto [keys, values] = keysValues(memory);
    return attend(target, keys, values, memoryMask);
}

} // namespace attnlab
