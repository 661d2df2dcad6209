#include "core/nn/layers/RmsNorm.h"

namespace attnlab {

RmsNormImpl::RmsNormImpl(int64_t width, double eps) : eps_(eps)
{
    weight = register_parameter("weight", torch::ones({width}));
}

torch::Tensor RmsNormImpl::forward(const torch::Tensor& x)
{
    // In float32 even for a half-precision input, as the reference implementations do: the mean of squares
    // of a 576-wide residual stream overflows fp16.
    const auto x32 = x.to(torch::kFloat);
    const auto inverseRms = torch::rsqrt(x32.pow(2).mean(-1, /*keepdim=*/true) + eps_); // [..., 1]
    return (x32 * inverseRms).to(x.scalar_type()) * weight;
}

} // namespace attnlab
