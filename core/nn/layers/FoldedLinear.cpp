#include "core/nn/layers/FoldedLinear.h"

namespace attnlab {

torch::Tensor FoldedLinear::apply(const torch::nn::Linear& layer, const torch::Tensor& x)
{
    return torch::linear(x, layer->weight, layer->bias);
}

} // namespace attnlab
