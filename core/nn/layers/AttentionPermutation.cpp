#include "core/nn/layers/AttentionPermutation.h"

#include <stdexcept>

namespace attnlab {
namespace {

thread_local torch::Tensor activeOrder; // undefined: no permutation

} // namespace

AttentionPermutation::AttentionPermutation(torch::Tensor order)
{
    if (activeOrder.defined())
        throw std::logic_error("AttentionPermutation: one is already active on this thread");
    activeOrder = std::move(order);
}

AttentionPermutation::~AttentionPermutation()
{
    activeOrder = torch::Tensor();
}

bool AttentionPermutation::active()
{
    return activeOrder.defined();
}

torch::Tensor AttentionPermutation::applyTo(const torch::Tensor& weights)
{
    if (!activeOrder.defined())
        return weights;
    // The order broadcast over the middle axes (heads, queries): [B, 1, ..., 1, T] expanded to the weights'.
    std::vector<int64_t> shape(static_cast<std::size_t>(weights.dim()), 1);
    shape.front() = activeOrder.size(0);
    shape.back() = activeOrder.size(1);
    return weights.gather(-1, activeOrder.to(weights.device()).view(shape).expand(weights.sizes()));
}

} // namespace attnlab
