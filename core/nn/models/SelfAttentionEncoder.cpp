#include "core/nn/models/SelfAttentionEncoder.h"

#include "core/nn/layers/DropoutMask.h"

#include <cmath>

namespace attnlab {

SelfAttentionEncoderImpl::SelfAttentionEncoderImpl(const ModelConfig& config)
    : scale_(std::sqrt(static_cast<double>(config.dModel))), inputDrop_(1.0 - config.keepAt("input"))
{
    const int d = config.dModel;
    positions_ = register_module("positions", AbsolutePositions(config.position, d, config.maxLength));
    TransformerBlockOptions o;
    o.attention = SelfAttentionOptions::transformer(d, config.heads, config.position, config.rprClip);
    o.ffnHidden = config.ffnHidden;
    o.activation = config.activationOr("relu");
    o.residualDrop = 1.0 - config.keepAt("hidden");
    for (int l = 0; l < config.layers; ++l)
        blocks_.push_back(register_module("layer" + std::to_string(l), TransformerBlock(o)));
    final_ = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
}

torch::Tensor SelfAttentionEncoderImpl::forward(const torch::Tensor& words, const torch::Tensor& mask, std::vector<torch::Tensor>* weights)
{
    auto x = DropoutMask::apply(positions_(words * scale_), inputDrop_, is_training()); // [N, S, d]
    for (auto& block : blocks_) {
        torch::Tensor w;
        x = block->forward(x, mask, weights ? &w : nullptr);
        if (weights)
            weights->push_back(w);
    }
    return final_(x);
}

void SelfAttentionEncoderImpl::initialiseWordTable(torch::nn::Embedding& table, int dModel)
{
    torch::NoGradGuard noGrad;
    table->weight.normal_(0.0, 1.0 / std::sqrt(static_cast<double>(dModel)));
    table->weight[0].zero_(); // <pad>
}

} // namespace attnlab
