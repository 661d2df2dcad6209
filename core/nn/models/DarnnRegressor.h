#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/models/SeriesRegressor.h"

namespace attnlab {

// DA-RNN (Qin et al. 2017, thesis 6.2), encoder and decoder of d_model LSTM units.
// Input attention, at each encoder step t over the F driving series x^k (each a whole window, length T):
//   e_t^k = v_e^T tanh(W_e [h_{t-1}; s_{t-1}] + U_e x^k),  alpha_t = softmax_k(e_t),  x~_t = alpha_t * x_t
// Temporal attention, at each decoder step over the encoder states h_i:
//   l^i = v_d^T tanh(W_d [d; s'] + U_d h_i),  beta = softmax_i(l),  c = sum_i beta_i h_i
// Decoder input y~ = w~^T [y; c] + b~, and y_T = v_y^T (W_y [d_T; c_T] + b_w) + b_v.
class DarnnRegressor : public SeriesRegressor {
public:
    DarnnRegressor(const ModelConfig& config, int drivers, int window);
    torch::Tensor forward(const torch::Tensor& drivers, const torch::Tensor& history) override;
    std::string summary() const override;

private:
    ModelConfig config_;
    int window_;
    torch::nn::LSTMCell encoderCell_{nullptr}, decoderCell_{nullptr};
    torch::nn::Linear inputW_{nullptr}, inputU_{nullptr}, inputV_{nullptr};
    torch::nn::Linear temporalW_{nullptr}, temporalU_{nullptr}, temporalV_{nullptr};
    torch::nn::Linear decoderInput_{nullptr}, outputW_{nullptr}, outputV_{nullptr};
};

} // namespace attnlab
