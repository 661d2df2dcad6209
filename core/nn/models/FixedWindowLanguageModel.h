#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/models/LanguageModel.h"

namespace attnlab {

// Bengio et al. 2003's neural probabilistic language model, the fixed-window network between the n-gram and
// the RNN: token t + 1 is predicted from the k = n - 1 tokens t - k + 1 .. t only (n = ModelConfig::order),
//   x = [C(w_{t-k+1}); ...; C(w_t)]    the k embeddings of d_model concatenated, oldest first   [k d]
//   y = b + U tanh(d + H x)             H [h, k d], d [h], U [V, h], b [V]; h = ffn_hidden (0: 4 d_model)
// (their equation without the direct connections W x). Positions before the text read zero vectors, in
// training (each window starts from them) and in generation alike. H grows with the window, k d h weights:
// the thesis' Table 2.1 point that a feed-forward network's weights grow with the steps it reads.
// Dropout at the input (the embeddings) and the hidden point (after tanh).
class FixedWindowLanguageModel : public LanguageModel {
public:
    explicit FixedWindowLanguageModel(const ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) override;
    // The state: the last k embeddings [N, k, d] (zeros before the text).
    State start(std::int64_t rows) override;
    torch::Tensor step(State& state, const torch::Tensor& ids,
                       std::vector<torch::Tensor>* attention = nullptr) override;
    std::string summary() const override;

private:
    // embedded [B, k + T, d] (k earlier vectors, then T tokens) -> logits [B, T, V] for the T tokens.
    torch::Tensor predict(const torch::Tensor& embedded);
    ModelConfig config_;
    int window_; // k = n - 1
    torch::nn::Embedding tokens_ {nullptr};
    torch::nn::Linear hidden_ {nullptr};
    torch::nn::Linear output_ {nullptr};
    double inputDrop_;
    double hiddenDrop_;
};

} // namespace attnlab
