#include "core/nn/layers/GroupedQueryAttention.h"

#include "core/nn/layers/PositionEncoding.h"
#include "core/nn/layers/ScaledDotProductAttention.h"

#include <limits>

namespace attnlab {

GroupedQueryAttentionImpl::GroupedQueryAttentionImpl(int64_t width, int64_t heads, int64_t kvHeads, int64_t headSize,
                                                     double ropeBase)
    : heads_(heads), kvHeads_(kvHeads), headSize_(headSize), ropeBase_(ropeBase)
{
    const auto linear = [](int64_t in, int64_t out) {
        return torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(false));
    };
    q = register_module("q", linear(width, heads * headSize));
    k = register_module("k", linear(width, kvHeads * headSize));
    v = register_module("v", linear(width, kvHeads * headSize));
    o = register_module("o", linear(heads * headSize, width));
}

GroupedQueryAttentionImpl::Projections GroupedQueryAttentionImpl::project(const torch::Tensor& x, int64_t offset)
{
    const int64_t batch = x.size(0), length = x.size(1);
    // [B, T, heads * dh] -> [B, heads, T, dh]
    const auto split = [&](const torch::Tensor& y, int64_t heads) {
        return y.view({batch, length, heads, headSize_}).transpose(1, 2);
    };
    Projections p;
    p.query = split(q->forward(x), heads_);
    p.key = split(k->forward(x), kvHeads_);
    p.value = split(v->forward(x), kvHeads_);
    p.rotatedQuery = PositionEncoding::rotary(p.query, offset, ropeBase_);
    p.rotatedKey = PositionEncoding::rotary(p.key, offset, ropeBase_);
    return p;
}

torch::Tensor GroupedQueryAttentionImpl::causalBias(int64_t queries, int64_t offset,
                                                    const torch::TensorOptions& options)
{
    const auto index = torch::TensorOptions().dtype(torch::kLong).device(options.device());
    const auto later = torch::arange(offset + queries, index).unsqueeze(0) >
        torch::arange(offset, offset + queries, index).unsqueeze(1);
    return torch::zeros({queries, offset + queries}, options)
        .masked_fill(later, -std::numeric_limits<float>::infinity())
        .unsqueeze(0);
}

torch::Tensor GroupedQueryAttentionImpl::forward(const torch::Tensor& x, torch::Tensor* keys, torch::Tensor* values,
                                                 torch::Tensor* weights, const HeadAblation& ablation)
{
    const bool cached = keys && keys->defined();
    const int64_t offset = cached ? keys->size(2) : 0;
    auto p = project(x, offset);
    auto key = p.rotatedKey, value = p.value;
    if (keys) {
        if (cached) { // the text so far, then this call's positions
            key = torch::cat({*keys, key}, 2);
            value = torch::cat({*values, value}, 2);
        }
        *keys = key;
        *values = value;
    }
    AttentionTerms terms;
    terms.firstQuery = offset;
    if (x.size(1) > 1 || offset == 0) // a single new query may read every key: no mask needed
        terms.bias = causalBias(x.size(1), offset, x.options());
    auto attended = ScaledDotProductAttention::apply(p.rotatedQuery, key, value, terms);
    auto z = attended.output; // [B, H, T, dh]
    if (!ablation.empty()) {
        z = z.clone();
        for (int h : ablation.heads) {
            auto head = z.select(1, h);
            if (ablation.mean)
                head.copy_(head.mean(1, /*keepdim=*/true).expand_as(head));
            else
                head.zero_();
        }
    }
    if (weights)
        *weights = attended.weights;
    return o->forward(z.transpose(1, 2).reshape({x.size(0), x.size(1), heads_ * headSize_}));
}

} // namespace attnlab
