#include "core/nn/layers/PositionEncoding.h"

#include <cmath>

namespace attnlab {

torch::Tensor PositionEncoding::sinusoidal(int64_t length, int64_t d, const torch::TensorOptions& options)
{
    auto positions = torch::arange(length, options).unsqueeze(1);                 // [T, 1]
    auto evenDims = torch::arange(0, d, 2, options);                              // 2i
    auto rates = torch::exp(evenDims * (-std::log(10000.0) / static_cast<double>(d))); // 10000^(-2i/d)
    auto angles = positions * rates.unsqueeze(0);                                 // [T, ceil(d/2)]
    auto pe = torch::zeros({length, d}, options);
    pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)}, torch::sin(angles));
    pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                  torch::cos(angles.slice(1, 0, d / 2)));
    return pe;
}

torch::Tensor PositionEncoding::rotary(const torch::Tensor& x, int64_t offset, double base)
{
    const int64_t length = x.size(2), dh = x.size(3);
    auto options = x.options();
    auto positions = torch::arange(offset, offset + length, options).unsqueeze(1);
    auto rates = torch::exp(torch::arange(0, dh, 2, options) * (-std::log(base) / static_cast<double>(dh)));
    auto angles = positions * rates.unsqueeze(0); // [T, dh/2]
    auto cos = torch::cos(angles), sin = torch::sin(angles);
    auto pairs = x.view({x.size(0), x.size(1), length, dh / 2, 2});
    auto even = pairs.select(-1, 0), odd = pairs.select(-1, 1);
    auto rotatedEven = even * cos - odd * sin;
    auto rotatedOdd = even * sin + odd * cos;
    return torch::stack({rotatedEven, rotatedOdd}, -1).view(x.sizes());
}

torch::Tensor PositionEncoding::alibiSlopes(int64_t heads, const torch::TensorOptions& options)
{
    auto h = torch::arange(1, heads + 1, options);
    return torch::pow(2.0, h * (-8.0 / static_cast<double>(heads)));
}

torch::Tensor PositionEncoding::alibiBias(int64_t heads, int64_t length, const torch::TensorOptions& options)
{
    auto positions = torch::arange(length, options);
    auto distance = (positions.unsqueeze(0) - positions.unsqueeze(1)).abs(); // [T, T]
    return -alibiSlopes(heads, options).view({heads, 1, 1}) * distance.unsqueeze(0);
}

} // namespace attnlab
