#include "core/nn/layers/SwiGlu.h"

namespace attnlab {

SwiGluImpl::SwiGluImpl(int64_t width, int64_t hidden)
{
    gate = register_module("gate", torch::nn::Linear(torch::nn::LinearOptions(width, hidden).bias(false)));
    up = register_module("up", torch::nn::Linear(torch::nn::LinearOptions(width, hidden).bias(false)));
    down = register_module("down", torch::nn::Linear(torch::nn::LinearOptions(hidden, width).bias(false)));
}

torch::Tensor SwiGluImpl::forward(const torch::Tensor& x)
{
    return down(torch::silu(gate(x)) * up(x));
}

} // namespace attnlab
