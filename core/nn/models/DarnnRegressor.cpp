#include "core/nn/models/DarnnRegressor.h"

#include <sstream>

namespace attnlab {

DarnnRegressor::DarnnRegressor(const ModelConfig& config, int drivers, int window) : config_(config), window_(window)
{
    const int m = config.dModel;
    encoderCell_ = register_module("encoder_cell", torch::nn::LSTMCell(drivers, m));
    decoderCell_ = register_module("decoder_cell", torch::nn::LSTMCell(1, m));
    inputW_ = register_module("input_w", torch::nn::Linear(2 * m, window));
    inputU_ = register_module("input_u", torch::nn::Linear(torch::nn::LinearOptions(window, window).bias(false)));
    inputV_ = register_module("input_v", torch::nn::Linear(torch::nn::LinearOptions(window, 1).bias(false)));
    temporalW_ = register_module("temporal_w", torch::nn::Linear(2 * m, m));
    temporalU_ = register_module("temporal_u", torch::nn::Linear(torch::nn::LinearOptions(m, m).bias(false)));
    temporalV_ = register_module("temporal_v", torch::nn::Linear(torch::nn::LinearOptions(m, 1).bias(false)));
    decoderInput_ = register_module("decoder_input", torch::nn::Linear(m + 1, 1));
    outputW_ = register_module("output_w", torch::nn::Linear(2 * m, m));
    outputV_ = register_module("output_v", torch::nn::Linear(m, config.horizon)); // one output per step ahead
}

torch::Tensor DarnnRegressor::forward(const torch::Tensor& drivers, const torch::Tensor& history)
{
    const int64_t batch = drivers.size(0), length = drivers.size(1), features = drivers.size(2), m = config_.dModel;
    TORCH_CHECK(length == window_, "window: DA-RNN was built for T = ", window_, " but got T = ", length);
    auto zeros = torch::zeros({batch, m}, drivers.options());

    // Encoder with input attention. U_e x^k does not depend on t: computed once, [B, F, T].
    auto series = drivers.transpose(1, 2);
    auto seriesTerm = inputU_(series);
    torch::Tensor h = zeros, s = zeros;
    std::vector<torch::Tensor> states, alphas;
    for (int64_t t = 0; t < length; ++t) {
        auto stateTerm = inputW_(torch::cat({h, s}, 1)).unsqueeze(1);                 // [B, 1, T]
        auto e = inputV_(torch::tanh(stateTerm + seriesTerm)).squeeze(-1);            // [B, F]
        auto alpha = torch::softmax(e, 1);
        auto next = encoderCell_(alpha * drivers.select(1, t), std::make_tuple(h, s));
        h = std::get<0>(next);
        s = std::get<1>(next);
        states.push_back(h);
        if (record_)
            alphas.push_back(alpha.detach());
    }
    auto encoded = torch::stack(states, 1);          // [B, T, m]
    auto encodedTerm = temporalU_(encoded);          // U_d h_i, [B, T, m]

    // Decoder with temporal attention over the encoder states.
    torch::Tensor d = zeros, sd = zeros, beta, context;
    auto attend = [&] {
        auto l = temporalV_(torch::tanh(temporalW_(torch::cat({d, sd}, 1)).unsqueeze(1) + encodedTerm)).squeeze(-1);
        beta = torch::softmax(l, 1);                                   // [B, T]
        context = torch::bmm(beta.unsqueeze(1), encoded).squeeze(1);   // [B, m]
    };
    for (int64_t t = 0; t + 1 < length; ++t) {
        attend();
        auto input = decoderInput_(torch::cat({history.select(1, t).unsqueeze(1), context}, 1));
        auto next = decoderCell_(input, std::make_tuple(d, sd));
        d = std::get<0>(next);
        sd = std::get<1>(next);
    }
    attend();
    if (record_) {
        inputAttention_ = torch::stack(alphas, 1); // [B, T, F]
        temporalAttention_ = beta.detach();
    }
    (void)features;
    return outputV_(outputW_(torch::cat({d, context}, 1))); // [B, H]
}

std::string DarnnRegressor::summary() const
{
    std::ostringstream s;
    s << "DA-RNN, encoder and decoder of " << config_.dModel << " LSTM units, window " << window_;
    return s.str();
}

} // namespace attnlab
