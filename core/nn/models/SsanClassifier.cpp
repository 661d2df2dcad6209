#include "core/nn/models/SsanClassifier.h"

#include "core/nn/layers/EmbeddingLookup.h"
#include "core/nn/layers/Activation.h"

#include <sstream>

namespace attnlab {

SsanClassifier::SsanClassifier(const ModelConfig& config, bool extended)
    : config_(config), extended_(extended), activation_(config.activationOr(extended ? "swish" : "relu"))
{
    const int d = config.dModel;
    embedding_ = register_module(
        "embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabularySize, config.inputDim()).padding_idx(0)));
    positions_ = register_module("positions", AbsolutePositions(config.position, config.inputDim(), config.maxLength));
    for (int l = 0; l < config.layers; ++l) {
        SelfAttentionOptions o;
        o.inputDim = l == 0 ? config.inputDim() : d;
        o.dModel = d;
        o.heads = config.heads; // SSAN is single-head by default (heads = 1)
        o.projectionActivation = activation_;
        o.maskProjections = extended;
        o.position = config.position;
        o.rprClip = config.rprClip;
        o.uniform = config.uniformAttention;
        o.window = config.attentionWindow;
        o.globalTokens = config.globalTokens;
        attention_.push_back(register_module("attention" + std::to_string(l), SelfAttention(o)));
        afterAttention_.push_back(register_module("ff" + std::to_string(l), torch::nn::Linear(d, d)));
    }
    pooling_ = register_module("pooling", SequencePooling(config.poolingOr(extended ? "attention" : "mean"), d, activation_, extended));
    sentence_ = register_module("sentence", torch::nn::Linear(d, d)); // SSAN's sentence FF; ESSAN's FF_sr
    output_ = register_module("output", torch::nn::Linear(d, config.numClasses));
    dropout_ = register_module("dropout", DropoutPoints(config));
}

torch::Tensor SsanClassifier::embed(const torch::Tensor& ids)
{
    return EmbeddingLookup::apply(embedding_, ids);
}

torch::Tensor SsanClassifier::forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask)
{
    if (record_)
        recorded_.clear();
    auto realPositions = mask.unsqueeze(-1).to(torch::kFloat);
    auto x = dropout_->input(positions_(embedded));
    for (std::size_t l = 0; l < attention_.size(); ++l) {
        auto attended = attention_[l]->forward(x, mask);
        if (record_)
            recorded_.push_back(torch::GradMode::is_enabled() ? attended.dense() : attended.dense().detach());
        x = Activation::apply(activation_, afterAttention_[l](attended.output));
        if (extended_)
            x = x * realPositions; // 4.2.1: padded positions back to zero after the FF
        x = dropout_->hidden(x);
    }
    auto sentence = dropout_->output(Activation::apply(activation_, sentence_(pooling_(x, mask))));
    return output_(sentence);
}

std::string SsanClassifier::summary() const
{
    std::ostringstream s;
    s << config_.layers << "-layer " << (extended_ ? "ESSAN" : "SSAN") << ", d_model " << config_.dModel;
    if (config_.heads > 1)
        s << ", " << config_.heads << " heads";
    s << ", " << (config_.position == "rpr" ? "RPR k=" + std::to_string(config_.rprClip) : "position " + config_.position)
      << ", " << activation_ << ", " << config_.poolingOr(extended_ ? "attention" : "mean") << " pooling, "
      << config_.numClasses << " classes, dropout keep " << dropout_->describe();
    if (config_.uniformAttention)
        s << ", uniform attention (1/n, no query or key projections)";
    if (config_.attentionWindow > 0)
        s << ", sliding window +-" << config_.attentionWindow
          << (config_.globalTokens > 0 ? " with " + std::to_string(config_.globalTokens) + " global tokens" : std::string());
    return s.str();
}

} // namespace attnlab
