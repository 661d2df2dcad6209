#include "core/nn/training/GradientNorms.h"

#include <cctype>
#include <cmath>

namespace attnlab {

std::string GradientNorms::layerOf(const std::string& parameterName)
{
    const auto dot = parameterName.find('.');
    const std::string top = parameterName.substr(0, dot);
    // The lab's numbered modules (attention0, ffn_in0, attention_norm0, block0; encoder_ffn_in1, cross_attention1)
    // are one layer's parts: one group a layer, the encoder's and the decoder's apart.
    std::size_t digits = top.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(top[digits - 1])))
        --digits;
    if (digits < top.size() && digits > 0) {
        const std::string stem = top.substr(0, digits), number = top.substr(digits);
        const bool encoder = stem.rfind("encoder_", 0) == 0;
        const bool decoder = stem.rfind("decoder_", 0) == 0 || stem.rfind("cross_", 0) == 0;
        return std::string(encoder ? "encoder_" : decoder ? "decoder_" : "") + "layer" + number;
    }
    // LibTorch's RNN/GRU/LSTM keep every stacked layer in one module: weight_ih_l0, bias_hh_l1_reverse, ...
    const auto l = parameterName.rfind("_l");
    if (dot != std::string::npos && l != std::string::npos && l > dot && l + 2 < parameterName.size() &&
        std::isdigit(static_cast<unsigned char>(parameterName[l + 2]))) {
        std::size_t end = l + 2;
        while (end < parameterName.size() && std::isdigit(static_cast<unsigned char>(parameterName[end])))
            ++end;
        return top + ".l" + parameterName.substr(l + 2, end - l - 2);
    }
    return top;
}

GradientNorms::GradientNorms(const torch::nn::Module& model)
{
    for (const auto& item : model.named_parameters()) {
        if (!item.value().requires_grad())
            continue;
        const std::string layer = layerOf(item.key());
        std::size_t i = 0;
        while (i < layers_.size() && layers_[i] != layer)
            ++i;
        if (i == layers_.size()) {
            layers_.push_back(layer);
            parameters_.emplace_back();
        }
        parameters_[i].push_back(item.value());
    }
}

std::vector<std::pair<std::string, double>> GradientNorms::measure() const
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> perLayer; // each ||g_layer||, a scalar on the gradients' device
    for (const auto& parameters : parameters_) {
        std::vector<torch::Tensor> grads;
        for (const auto& p : parameters)
            if (p.grad().defined())
                grads.push_back(p.grad());
        perLayer.push_back(grads.empty() ? torch::zeros({}, parameters.front().options())
                                         : torch::stack(torch::_foreach_norm(grads)).norm(2));
    }
    std::vector<std::pair<std::string, double>> out;
    if (perLayer.empty())
        return out;
    const auto host = torch::stack(perLayer).to(torch::kCPU, torch::kDouble); // the one read
    const auto* values = host.data_ptr<double>();
    double squares = 0.0;
    for (std::size_t i = 0; i < layers_.size(); ++i)
        squares += values[i] * values[i];
    out.emplace_back("grad_norm", std::sqrt(squares));
    for (std::size_t i = 0; i < layers_.size(); ++i)
        out.emplace_back("grad_norm." + layers_[i], values[i]);
    return out;
}

} // namespace attnlab
