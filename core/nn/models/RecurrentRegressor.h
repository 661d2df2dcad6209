#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/models/SeriesRegressor.h"

namespace attnlab {

// The RNN baselines of Qin et al. (2017) used in thesis 6.2, with LSTM cells of d_model units:
// - narx: one LSTM over [x_t; y_t] for t = 1..T (y_T filled with y_{T-1}), last state -> linear.
// - encdec (Cho et al. 2014): an encoder LSTM over x_1..x_T; a decoder LSTM started from the encoder's
//   final state reads y_1..y_{T-1}; its last state -> linear.
// - attn-rnn (Bahdanau et al. 2014): encdec whose prediction also sees a context vector, the encoder
//   states weighted by additive attention e_i = v^T tanh(W [d; h_i]) from the decoder's last state.
class RecurrentRegressor : public SeriesRegressor {
public:
    RecurrentRegressor(const ModelConfig& config, int drivers);
    torch::Tensor forward(const torch::Tensor& drivers, const torch::Tensor& history) override;
    std::string summary() const override;

private:
    ModelConfig config_;
    torch::nn::LSTM encoder_{nullptr}, decoder_{nullptr};
    torch::nn::Linear attentionHidden_{nullptr}, attentionScore_{nullptr};
    torch::nn::Linear output_{nullptr};
};

} // namespace attnlab
