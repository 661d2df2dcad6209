#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/models/LanguageModel.h"

namespace attnlab {

// Karpathy's char-rnn: token embeddings (d_model), ModelConfig::layers stacked LSTM (or GRU, tanh RNN, or Le et al.
// 2015's IRNN: ReLU, the recurrent matrix starting as the identity and the biases at zero) layers of d_model units with
// dropout between them (the hidden point), and a linear layer to the next token's logits at every step. Generation
// carries the hidden (and cell) state, so it has no context limit; training reads windows of the context's length from
// a zero state, as char-rnn's seq_length does.
class RecurrentLanguageModel : public LanguageModel {
public:
    explicit RecurrentLanguageModel(const ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) override;
    State start(std::int64_t rows) override;
    torch::Tensor step(State& state, const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) override;
    void select(State& state, const torch::Tensor& rows) const override; // h (and c): [layers, N, d]
    std::string summary() const override;
    GateValues gates(const torch::Tensor& ids) override; // the LSTM's or GRU's (RecurrentGates)

private:
    // [B, T, d] states for embedded input, from (and updating) the state's tensors when given.
    torch::Tensor run(const torch::Tensor& embedded, std::vector<torch::Tensor>* state);
    ModelConfig config_;
    torch::nn::Embedding tokens_{nullptr};
    torch::nn::LSTM lstm_{nullptr};
    torch::nn::GRU gru_{nullptr};
    torch::nn::RNN rnn_{nullptr};
    torch::nn::Linear output_{nullptr};
    double inputDrop_;
};

} // namespace attnlab
