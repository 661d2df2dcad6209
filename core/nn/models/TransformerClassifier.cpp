#include "core/nn/models/TransformerClassifier.h"

#include "core/nn/layers/Activation.h"
#include "core/nn/layers/EmbeddingLookup.h"
#include "core/nn/layers/ResidualSublayer.h"

#include <sstream>

namespace attnlab {

TransformerClassifier::TransformerClassifier(const ModelConfig& config)
    : config_(config), activation_(config.activationOr("relu")), layerNorm_(config.layerNormOr("post"))
{
    const int d = config.dModel;
    const int ffn = config.ffnHidden > 0 ? config.ffnHidden : 4 * d;
    embedding_ = register_module(
        "embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, config.inputDim()).padding_idx(0)));
    if (config.inputDim() != d)
        inputProjection_ = register_module("input_projection", torch::nn::Linear(config.inputDim(), d));
    positions_ = register_module("positions", AbsolutePositions(config.position, config.inputDim(), config.maxLength));
    for (int l = 0; l < config.layers; ++l) {
        auto o = SelfAttentionOptions::transformer(d, config.heads, config.position, config.rprClip);
        o.uniform = config.uniformAttention;
        o.window = config.attentionWindow;
        o.globalTokens = config.globalTokens;
        const auto n = std::to_string(l);
        attention_.push_back(register_module("attention" + n, SelfAttention(o)));
        if (layerNorm_ != "none")
            attentionNorm_.push_back(register_module("attention_norm" + n, torch::nn::LayerNorm(torch::nn::LayerNormOptions({d}))));
        ffnIn_.push_back(register_module("ffn_in" + n, torch::nn::Linear(d, ffn)));
        ffnOut_.push_back(register_module("ffn_out" + n, torch::nn::Linear(ffn, d)));
        if (layerNorm_ != "none")
            ffnNorm_.push_back(register_module("ffn_norm" + n, torch::nn::LayerNorm(torch::nn::LayerNormOptions({d}))));
    }
    if (layerNorm_ == "pre")
        finalNorm_ = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    pooling_ = register_module("pooling", SequencePooling(config.poolingOr("mean"), d, activation_, false));
    output_ = register_module("output", torch::nn::Linear(d, config.numClasses));
    dropout_ = register_module("dropout", DropoutPoints(config));
}

torch::Tensor TransformerClassifier::embed(const torch::Tensor& ids)
{
    return EmbeddingLookup::apply(embedding_, ids);
}

torch::Tensor TransformerClassifier::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    if (record_)
        recorded_.clear();
    auto x = positions_(embedded);
    if (inputProjection_)
        x = inputProjection_(x);
    x = dropout_->input(x);
    torch::nn::LayerNorm none{nullptr};
    for (std::size_t l = 0; l < attention_.size(); ++l) {
        x = sublayer(x, attentionNorm_.empty() ? none : attentionNorm_[l], [&](const torch::Tensor& h) {
            auto attended = attention_[l]->forward(h, mask);
            if (record_)
                recorded_.push_back(torch::GradMode::is_enabled() ? attended.dense() : attended.dense().detach());
            return attended.output;
        });
        x = sublayer(x, ffnNorm_.empty() ? none : ffnNorm_[l], [&](const torch::Tensor& h) {
            return ffnOut_[l](dropout_->hidden(Activation::apply(activation_, ffnIn_[l](h))));
        });
    }
    if (finalNorm_)
        x = finalNorm_(x);
    return output_(dropout_->output(pooling_(x, mask)));
}

torch::Tensor TransformerClassifier::sublayer(const torch::Tensor& x, torch::nn::LayerNorm& norm,
                                              const std::function<torch::Tensor(const torch::Tensor&)>& f)
{
    return ResidualSublayer::apply(x, norm, layerNorm_, config_.residual, f, [this](const torch::Tensor& b) { return dropout_->hidden(b); });
}

std::string TransformerClassifier::summary() const
{
    std::ostringstream s;
    s << config_.layers << "-layer Transformer encoder, d_model " << config_.dModel << ", " << config_.heads << " heads, FFN "
      << (config_.ffnHidden > 0 ? config_.ffnHidden : 4 * config_.dModel) << ", "
      << (config_.position == "rpr" ? "RPR k=" + std::to_string(config_.rprClip) : "position " + config_.position) << ", "
      << config_.poolingOr("mean") << " pooling, " << config_.numClasses << " classes";
    if (layerNorm_ != "post" || !config_.residual)
        s << ", " << (layerNorm_ == "none" ? "no LayerNorm" : layerNorm_ + "-LN") << (config_.residual ? "" : ", no residuals");
    if (config_.attentionWindow > 0)
        s << ", sliding window +-" << config_.attentionWindow
          << (config_.globalTokens > 0 ? " with " + std::to_string(config_.globalTokens) + " global tokens" : std::string());
    return s.str();
}

} // namespace attnlab
