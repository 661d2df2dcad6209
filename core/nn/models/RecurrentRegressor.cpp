#include "core/nn/models/RecurrentRegressor.h"

#include <sstream>

namespace attnlab {

RecurrentRegressor::RecurrentRegressor(const ModelConfig& config, int drivers) : config_(config)
{
    const int d = config.dModel;
    auto lstm = [&](int input) { return torch::nn::LSTM(torch::nn::LSTMOptions(input, d).num_layers(config.layers).batch_first(true)); };
    if (config.model == "narx") {
        encoder_ = register_module("encoder", lstm(drivers + 1));
        output_ = register_module("output", torch::nn::Linear(d, config.horizon));
        return;
    }
    encoder_ = register_module("encoder", lstm(drivers));
    decoder_ = register_module("decoder", lstm(1));
    if (config.model == "attn-rnn") {
        attentionHidden_ = register_module("attention_hidden", torch::nn::Linear(2 * d, d));
        attentionScore_ = register_module("attention_score", torch::nn::Linear(torch::nn::LinearOptions(d, 1).bias(false)));
        output_ = register_module("output", torch::nn::Linear(2 * d, config.horizon));
    } else {
        output_ = register_module("output", torch::nn::Linear(d, config.horizon));
    }
}

torch::Tensor RecurrentRegressor::forward(const torch::Tensor& drivers, const torch::Tensor& history)
{
    if (config_.model == "narx") {
        auto states = std::get<0>(encoder_->forward(torch::cat({drivers, history.unsqueeze(-1)}, -1)));
        return output_(states.select(1, states.size(1) - 1)); // [B, H]
    }
    auto encoded = encoder_->forward(drivers);
    const auto& encoderStates = std::get<0>(encoded); // [B, T, d]
    const int64_t length = history.size(1);
    auto known = history.slice(1, 0, length - 1).unsqueeze(-1); // y_1..y_{T-1}
    auto decoded = std::get<0>(decoder_->forward(known, std::get<1>(encoded)));
    auto last = decoded.select(1, decoded.size(1) - 1); // [B, d]
    if (config_.model != "attn-rnn")
        return output_(last); // [B, H]
    auto query = last.unsqueeze(1).expand_as(encoderStates);
    auto scores = attentionScore_(torch::tanh(attentionHidden_(torch::cat({query, encoderStates}, -1)))).squeeze(-1); // [B, T]
    auto weights = torch::softmax(scores, -1); // [B, T]
    if (record_)
        temporalAttention_ = weights.detach();
    auto context = torch::bmm(weights.unsqueeze(1), encoderStates).squeeze(1);
    return output_(torch::cat({last, context}, -1)); // [B, H]
}

std::string RecurrentRegressor::summary() const
{
    std::ostringstream s;
    s << config_.model << " regressor, LSTM " << config_.dModel << " units x " << config_.layers << " layer(s)";
    return s.str();
}

} // namespace attnlab
