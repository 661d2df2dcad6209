#include "core/nn/layers/CrossAttention.h"

#include "core/nn/layers/ScaledDotProductAttention.h"

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
    const int64_t batch = target.size(0), targetLength = target.size(1), headSize = dModel_ / heads_;
    auto q = query_(target).view({batch, targetLength, heads_, headSize}).transpose(1, 2); // [B, H, T, dh]
    AttentionTerms terms;
    terms.keyMask = memoryMask; // padded source tokens get no weight
    auto attended = ScaledDotProductAttention::apply(q, k, v, terms); // [B, H, T, dh], weights [B, H, T, S]
    return {output_(attended.output.transpose(1, 2).reshape({batch, targetLength, dModel_})), attended.weights};
}

CrossAttentionImpl::Result CrossAttentionImpl::forward(const torch::Tensor& target, const torch::Tensor& memory,
                                                       const torch::Tensor& memoryMask)
{
    const auto [keys, values] = keysValues(memory);
    return attend(target, keys, values, memoryMask);
}

} // namespace attnlab
