#include "core/nn/models/GptModel.h"

#include "core/nn/layers/DropoutMask.h"

#include <cmath>

namespace attnlab {

GptModel::GptModel(const ModelConfig& config) : config_(config), inputDrop_(1.0 - config.keepAt("input"))
{
    const int d = config.dModel;
    tokens_ = register_module("tokens", torch::nn::Embedding(config.vocabularySize, d));
    positions_ = register_module("positions", AbsolutePositions(config.position, d, config.context));
    TransformerBlockOptions o;
    o.attention = SelfAttentionOptions::transformer(d, config.heads, config.position, config.rprClip);
    o.attention.causal = true;
    o.attention.scaled = config.scaled;
    o.ffnHidden = config.ffnHidden;
    o.attentionOnly = config.attentionOnly;
    o.residualDrop = 1.0 - config.keepAt("hidden");
    o.layerNorm = config.layerNormOr("pre");
    o.residual = config.residual;
    for (int l = 0; l < config.layers; ++l)
        blocks_.push_back(register_module("block" + std::to_string(l), TransformerBlock(o)));
    // Pre-LN leaves the residual stream unnormalised: GPT-2 adds a LayerNorm before the output. Post-LN's last
    // block already ends in one; without LayerNorm there is none.
    if (o.layerNorm == "pre")
        final_ = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));

    // GPT-2's initialisation (nanoGPT _init_weights): it matters at these depths; LibTorch's defaults train slower.
    torch::NoGradGuard noGrad;
    for (auto& p : named_parameters()) {
        const auto& key = p.key();
        if (key.find("norm") != std::string::npos)
            continue; // LayerNorm: 1 and 0
        if (key.size() >= 5 && key.compare(key.size() - 5, 5, ".bias") == 0)
            p.value().zero_();
        else
            p.value().normal_(0.0, 0.02);
    }
    for (auto& block : blocks_)
        for (auto& w : block->residualProjections())
            w.normal_(0.0, 0.02 / std::sqrt(2.0 * config.layers));
}

torch::Tensor GptModel::forward(const torch::Tensor& ids, std::vector<torch::Tensor>* attention)
{
    TORCH_CHECK(ids.size(1) <= config_.context, "a window of ", ids.size(1), " tokens is longer than the context ", config_.context);
    auto x = DropoutMask::apply(positions_(tokens_(ids)), inputDrop_, is_training()); // [B, T, d]
    const torch::Tensor mask; // no padding in a window of text: no key mask to apply
    for (auto& block : blocks_) {
        torch::Tensor weights;
        x = block(x, mask, attention ? &weights : nullptr);
        if (attention)
            attention->push_back(weights);
    }
    return torch::matmul(final_ ? final_(x) : x, tokens_->weight.t()); // tied: [B, T, V]
}

LanguageModel::State GptModel::start(std::int64_t rows)
{
    State state;
    const auto options = tokens_->weight.options();
    const std::int64_t headSize = config_.dModel / config_.heads;
    for (int l = 0; l < config_.layers; ++l) { // keys then values of each layer, [N, H, 0, dh]
        state.tensors.push_back(torch::zeros({rows, config_.heads, 0, headSize}, options));
        state.tensors.push_back(torch::zeros({rows, config_.heads, 0, headSize}, options));
    }
    return state;
}

torch::Tensor GptModel::step(State& state, const torch::Tensor& ids, std::vector<torch::Tensor>* attention)
{
    const std::int64_t fresh = ids.size(1);
    TORCH_CHECK(state.position + fresh <= config_.context, "the state holds ", config_.context, " tokens, the context");
    auto x = positions_(tokens_(ids), state.position); // [N, T, d]
    for (std::size_t l = 0; l < blocks_.size(); ++l) {
        torch::Tensor weights;
        x = blocks_[l]->step(x, state.tensors[2 * l], state.tensors[2 * l + 1], attention ? &weights : nullptr);
        if (attention)
            attention->push_back(weights.narrow(2, fresh - 1, 1)); // the last position's rows
    }
    state.position += fresh;
    x = x.select(1, fresh - 1); // only the last position's next token is asked for: [N, d]
    return torch::matmul(final_ ? final_(x) : x, tokens_->weight.t()); // [N, V]
}

std::string GptModel::summary() const
{
    return "GPT: " + std::to_string(config_.layers) + " layers x " + std::to_string(config_.heads) + " heads, d_model " +
           std::to_string(config_.dModel) + (config_.attentionOnly ? ", attention only" : ", MLP " +
           std::to_string(config_.ffnHidden > 0 ? config_.ffnHidden : 4 * config_.dModel)) + ", context " +
           std::to_string(config_.context) + ", " + config_.position + " positions" + (config_.scaled ? "" : ", scores not divided by sqrt(d_k)") +
           (config_.layerNormOr("pre") == "pre" ? "" : config_.layerNorm == "none" ? ", no LayerNorm" : ", post-LN") +
           (config_.residual ? "" : ", no residuals") + ", tied output over " + std::to_string(config_.vocabularySize) + " tokens";
}

} // namespace attnlab
