#include "core/nn/layers/LlamaBlock.h"

namespace attnlab {

LlamaBlockImpl::LlamaBlockImpl(int64_t width, int64_t heads, int64_t kvHeads, int64_t headSize, int64_t ffnHidden,
                               double ropeBase, double eps)
{
    attentionNorm = register_module("attention_norm", RmsNorm(width, eps));
    attention = register_module("attention", GroupedQueryAttention(width, heads, kvHeads, headSize, ropeBase));
    ffnNorm = register_module("ffn_norm", RmsNorm(width, eps));
    ffn = register_module("ffn", SwiGlu(width, ffnHidden));
}

torch::Tensor LlamaBlockImpl::forward(const torch::Tensor& x, torch::Tensor* keys, torch::Tensor* values,
                                      torch::Tensor* weights, const HeadAblation& ablation)
{
    const auto h = x + attention->forward(attentionNorm->forward(x), keys, values, weights, ablation);
    return h + ffn->forward(ffnNorm->forward(h));
}

} // namespace attnlab
