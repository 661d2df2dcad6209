#include "core/nn/layers/TransformerBlock.h"

#include "core/nn/layers/Activation.h"
#include "core/nn/layers/DropoutMask.h"
#include "core/nn/layers/FoldedLinear.h"
#include "core/nn/layers/ResidualSublayer.h"

namespace attnlab {

TransformerBlockImpl::TransformerBlockImpl(const TransformerBlockOptions& options) : options_(options)
{
    const int d = options.attention.dModel;
    const bool normed = options.layerNorm != "none";
    if (normed)
        norm1_ = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    attention_ = register_module("attention", SelfAttention(options.attention));
    if (options.crossAttention) {
        if (normed)
            crossNorm_ = register_module("cross_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        cross_ = register_module("cross_attention", CrossAttention(d, options.attention.heads));
    }
    if (!options.attentionOnly) {
        const int hidden = options.ffnHidden > 0 ? options.ffnHidden : 4 * d;
        if (normed)
            norm2_ = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        in_ = register_module("ffn_in", torch::nn::Linear(d, hidden));
        out_ = register_module("ffn_out", torch::nn::Linear(hidden, d));
    }
}

torch::Tensor TransformerBlockImpl::around(const torch::Tensor& x, torch::nn::LayerNorm& norm,
                                           const std::function<torch::Tensor(const torch::Tensor&)>& f)
{
    return ResidualSublayer::apply(x, norm, options_.layerNorm, options_.residual, f, [this](const torch::Tensor& b) {
        return DropoutMask::apply(b, options_.residualDrop, is_training()); // eval: no dropout
    });
}

AttentionMemory TransformerBlockImpl::memoryOf(const torch::Tensor& states, const torch::Tensor& mask)
{
    TORCH_CHECK(cross_, "memoryOf: a layer without cross-attention");
    auto [keys, values] = cross_->keysValues(states);
    return {keys, values, mask};
}

torch::Tensor TransformerBlockImpl::rest(const torch::Tensor& x, const AttentionMemory* memory, torch::Tensor* crossWeights)
{
    TORCH_CHECK(!cross_ == !memory, "a decoder layer reads the encoder's states, other layers none");
    auto y = x;
    if (cross_)
        y = around(y, crossNorm_, [&](const torch::Tensor& h) {
            auto crossed = cross_->attend(h, memory->keys, memory->values, memory->mask);
            if (crossWeights)
                *crossWeights = crossed.weights;
            return crossed.output;
        });
    if (options_.attentionOnly)
        return y;
    return around(y, norm2_, [this](const torch::Tensor& h) {
        return FoldedLinear::apply(out_, DropoutMask::apply(Activation::apply(options_.activation, FoldedLinear::apply(in_, h)),
                                                           options_.ffnDrop, is_training()));
    });
}

torch::Tensor TransformerBlockImpl::forward(const torch::Tensor& x, const torch::Tensor& mask, torch::Tensor* weights,
                                            const AttentionMemory* memory, torch::Tensor* crossWeights)
{
    auto y = around(x, norm1_, [&](const torch::Tensor& h) {
        if (!weights) // nobody keeps them: the layer may take a fused kernel that never makes them
            return attention_->outputOnly(h, mask);
        auto attended = attention_(h, mask);
        *weights = attended.weights;
        return attended.output;
    });
    return rest(y, memory, crossWeights);
}

torch::Tensor TransformerBlockImpl::step(const torch::Tensor& x, torch::Tensor& keys, torch::Tensor& values, torch::Tensor* weights,
                                         const AttentionMemory* memory, torch::Tensor* crossWeights)
{
    auto y = around(x, norm1_, [&](const torch::Tensor& h) {
        auto attended = attention_->step(h, keys, values);
        if (weights)
            *weights = attended.weights;
        return attended.output;
    });
    return rest(y, memory, crossWeights);
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
