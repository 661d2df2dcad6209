#include "core/nn/models/EssanRegressor.h"

#include "core/nn/layers/Activation.h"

#include <sstream>

namespace attnlab {

EssanRegressor::EssanRegressor(const ModelConfig& config, int drivers)
    : config_(config), activation_(config.activationOr("swish"))
{
    const int d = config.dModel, input = drivers + 1;
    positions_ = register_module("positions", AbsolutePositions(config.position, input, config.maxLength));
    for (int l = 0; l < config.layers; ++l) {
        SelfAttentionOptions o;
        o.inputDim = l == 0 ? input : d;
        o.dModel = d;
        o.heads = config.heads;
        o.projectionActivation = activation_;
        o.position = config.position;
        o.rprClip = config.rprClip;
        attention_.push_back(register_module("attention" + std::to_string(l), SelfAttention(o)));
        afterAttention_.push_back(register_module("ff" + std::to_string(l), torch::nn::Linear(d, d)));
    }
    pooling_ = register_module("pooling", SequencePooling(config.poolingOr("attention"), d, activation_, false));
    sentence_ = register_module("sentence", torch::nn::Linear(d, d));
    output_ = register_module("output", torch::nn::Linear(d, config.horizon)); // one output per step ahead
    dropout_ = register_module("dropout", DropoutPoints(config));
}

torch::Tensor EssanRegressor::forward(const torch::Tensor& drivers, const torch::Tensor& history)
{
    if (record_)
        recorded_.clear();
    auto mask = torch::ones({drivers.size(0), drivers.size(1)}, drivers.options().dtype(torch::kBool)); // windows are full
    auto x = dropout_->input(positions_(torch::cat({drivers, history.unsqueeze(-1)}, -1)));
    for (std::size_t l = 0; l < attention_.size(); ++l) {
        auto attended = attention_[l]->forward(x, mask);
        if (record_)
            recorded_.push_back(attended.weights.detach());
        x = dropout_->hidden(Activation::apply(activation_, afterAttention_[l](attended.output)));
    }
    auto pooled = pooling_(x, mask);
    if (record_)
        temporalAttention_ = pooling_->lastWeights();
    return output_(dropout_->output(Activation::apply(activation_, sentence_(pooled)))); // [B, H]
}

std::string EssanRegressor::summary() const
{
    std::ostringstream s;
    s << config_.layers << "-layer ESSAN regressor, d_model " << config_.dModel << ", " << config_.heads << " heads, "
      << (config_.position == "rpr" ? "RPR k=" + std::to_string(config_.rprClip) : "position " + config_.position) << ", "
      << activation_;
    return s.str();
}

} // namespace attnlab
