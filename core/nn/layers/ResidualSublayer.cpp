#include "core/nn/layers/ResidualSublayer.h"

namespace attnlab {

torch::Tensor ResidualSublayer::apply(const torch::Tensor& x, torch::nn::LayerNorm& norm, const std::string& layerNorm, bool residual,
                                      const Function& f, const Function& drop)
{
    auto branch = drop(f(layerNorm == "pre" ? norm(x) : x));
    auto y = residual ? x + branch : branch;
    return layerNorm == "post" ? norm(y) : y;
}

} // namespace attnlab
