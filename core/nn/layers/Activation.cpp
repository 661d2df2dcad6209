#include "core/nn/layers/Activation.h"

#include <stdexcept>

namespace attnlab {

torch::Tensor Activation::apply(const std::string& name, const torch::Tensor& x)
{
    if (name == "relu") return torch::relu(x);
    if (name == "swish") return x * torch::sigmoid(x);
    if (name == "gelu") return torch::gelu(x);
    if (name == "none") return x;
    throw std::invalid_argument("activation: unknown '" + name + "' (known: relu, swish, gelu, none)");
}

bool Activation::isKnown(const std::string& name)
{
    return name == "relu" || name == "swish" || name == "gelu" || name == "none";
}

} // namespace attnlab
