#include "core/nn/models/RecurrentLanguageModel.h"

#include "core/nn/layers/DropoutMask.h"
#include "core/nn/layers/RecurrentGates.h"

namespace attnlab {

RecurrentLanguageModel::RecurrentLanguageModel(const ModelConfig& config) : config_(config), inputDrop_(1.0 - config.keepAt("input"))
{
    const int d = config.dModel;
    const double between = config.layers > 1 ? 1.0 - config.keepAt("hidden") : 0.0;
    tokens_ = register_module("tokens", torch::nn::Embedding(config.vocabularySize, d));
    if (config.cell == "gru")
        gru_ = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(d, d).num_layers(config.layers).batch_first(true).dropout(between)));
    else if (config.cell == "rnn" || config.cell == "irnn") {
        auto options = torch::nn::RNNOptions(d, d).num_layers(config.layers).batch_first(true).dropout(between);
        if (config.cell == "irnn")
            options.nonlinearity(torch::kReLU);
        rnn_ = register_module("rnn", torch::nn::RNN(options));
    } else
        lstm_ = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(d, d).num_layers(config.layers).batch_first(true).dropout(between)));
    output_ = register_module("output", torch::nn::Linear(d, config.vocabularySize));
    if (config.cell == "irnn") { // Le et al. 2015: W_hh = I and zero biases, so at first a state is carried on as it is
        torch::NoGradGuard noGrad;
        for (auto& p : rnn_->named_parameters()) {
            if (p.key().rfind("weight_hh", 0) == 0)
                p.value().copy_(torch::eye(d));
            else if (p.key().rfind("bias", 0) == 0)
                p.value().zero_();
        }
    }
}

torch::Tensor RecurrentLanguageModel::run(const torch::Tensor& embedded, std::vector<torch::Tensor>* state)
{
    const bool carried = state && !state->empty();
    if (lstm_) {
        auto [out, hc] = carried ? lstm_(embedded, std::make_tuple((*state)[0], (*state)[1])) : lstm_(embedded);
        if (state)
            *state = {std::get<0>(hc), std::get<1>(hc)};
        return out;
    }
    auto [out, h] = gru_ ? (carried ? gru_(embedded, (*state)[0]) : gru_(embedded)) : (carried ? rnn_(embedded, (*state)[0]) : rnn_(embedded));
    if (state)
        *state = {h};
    return out;
}

torch::Tensor RecurrentLanguageModel::forward(const torch::Tensor& ids, std::vector<torch::Tensor>* /*attention: none*/)
{
    auto x = DropoutMask::apply(tokens_(ids), inputDrop_, is_training());
    return output_(run(x, nullptr));
}

LanguageModel::State RecurrentLanguageModel::start(std::int64_t /*rows*/)
{
    return {}; // a zero state, made by the first step
}

torch::Tensor RecurrentLanguageModel::step(State& state, const torch::Tensor& ids, std::vector<torch::Tensor>* /*attention*/)
{
    auto out = run(tokens_(ids), &state.tensors);
    state.position += ids.size(1);
    return output_(out.select(1, out.size(1) - 1)); // the last position's logits
}

void RecurrentLanguageModel::select(State& state, const torch::Tensor& rows) const
{
    for (auto& t : state.tensors) // empty before the first step: the zero state has no rows yet
        t = t.index_select(1, rows.to(t.device()));
}

GateValues RecurrentLanguageModel::gates(const torch::Tensor& ids)
{
    if (!lstm_ && !gru_)
        return {};
    torch::NoGradGuard noGrad;
    torch::nn::Module& cell = lstm_ ? static_cast<torch::nn::Module&>(*lstm_) : static_cast<torch::nn::Module&>(*gru_);
    return RecurrentGates::values(
        RecurrentGates::ofModule(cell, static_cast<bool>(lstm_), config_.layers, false, tokens_(ids)[0]), config_.cell);
}

std::string RecurrentLanguageModel::summary() const
{
    return "char-RNN: " + std::to_string(config_.layers) + " x " + config_.cell + " of " + std::to_string(config_.dModel) +
           " units, " + std::to_string(config_.vocabularySize) + " tokens";
}

} // namespace attnlab
