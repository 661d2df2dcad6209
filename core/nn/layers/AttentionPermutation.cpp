#include "core/nn/layers/AttentionPermutation.h"

#include <stdexcept>

namespace attnlab {
namespace {

thread_local torch::Tensor active; // undefined: no permutation

} // namespace

AttentionPermutation::AttentionPermutation(torch::Tensor order)
{
    if (active.defined())
        throw std::logic_error("AttentionPermutation: one is already active on this thread");
    active = std::move(order);
}

AttentionPermutation::~AttentionPermutation()
{
    active = torch::Tensor();
}

torch::Tensor AttentionPermutation::applyTo(const torch::Tensor& weights)
{
    if (!active.defined())
        return weights;
    // The order broadcast over the middle axes (heads, queries): [B, 1, ..., 1, T] expanded to the weights'.
    std::vector<int64_t> shape(static_cast<std::size_t>(weights.dim()), 1);
    shape.front() = active.size(0);
    shape.back() = active.size(1);
    return weights.gather(-1, active.to(weights.device()).view(shape).expand(weights.sizes()));
}

} // namespace attnlab
