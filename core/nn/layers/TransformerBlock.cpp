#include "core/nn/layers/TransformerBlock.h"

#include "core/nn/layers/DropoutMask.h"

namespace attnlab {

TransformerBlockImpl::TransformerBlockImpl(const TransformerBlockOptions& options) : options_(options)
{
    const int d = options.attention.dModel;
    norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    attention_ = register_module("attention", SelfAttention(options.attention));
    if (!options.attentionOnly) {
        const int hidden = options.ffnHidden > 0 ? options.ffnHidden : 4 * d;
        norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        in_ = register_module("ffn_in", torch::nn::Linear(d, hidden));
        out_ = register_module("ffn_out", torch::nn::Linear(hidden, d));
    }
}

torch::Tensor TransformerBlockImpl::mlp(const torch::Tensor& x)
{
    return DropoutMask::apply(out_(torch::gelu(in_(norm2_(x)))), options_.residualDrop, is_training());
}

torch::Tensor TransformerBlockImpl::forward(const torch::Tensor& x, const torch::Tensor& mask, torch::Tensor* weights)
{
    auto attended = attention_(norm1_(x), mask);
    if (weights)
        *weights = attended.weights;
    auto y = x + DropoutMask::apply(attended.output, options_.residualDrop, is_training());
    return options_.attentionOnly ? y : y + mlp(y);
}

torch::Tensor TransformerBlockImpl::step(const torch::Tensor& x, torch::Tensor& keys, torch::Tensor& values, torch::Tensor* weights)
{
    auto attended = attention_->step(norm1_(x), keys, values);
    if (weights)
        *weights = attended.weights;
    auto y = x + attended.output; // decoding runs in eval mode: no dropout
    return options_.attentionOnly ? y : y + mlp(y);
}

std::vector<torch::Tensor> TransformerBlockImpl::residualProjections()
{
    std::vector<torch::Tensor> out;
    for (const auto& p : attention_->named_parameters())
        if (p.key() == "output.weight")
            out.push_back(p.value());
    if (out_)
        out.push_back(out_->weight);
    return out;
}

} // namespace attnlab
