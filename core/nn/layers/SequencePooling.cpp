#include "core/nn/layers/SequencePooling.h"

#include "core/nn/layers/Activation.h"
#include "core/nn/layers/AttentionPermutation.h"

#include <cmath>

namespace attnlab {

SequencePoolingImpl::SequencePoolingImpl(const std::string& kind, int width, const std::string& activation,
                                         bool maskProjections)
    : kind_(kind), activation_(activation), maskProjections_(maskProjections)
{
    TORCH_CHECK(kind == "mean" || kind == "max" || kind == "attention", "pooling: unknown '", kind, "'");
    if (kind == "attention")
        query_ = register_module("query", torch::nn::Linear(width, width)); // FF_q
}

torch::Tensor SequencePoolingImpl::maskedMean(const torch::Tensor& x, const torch::Tensor& mask)
{
    auto real = mask.unsqueeze(-1).to(x.dtype());
    return (x * real).sum(1) / real.sum(1).clamp_min(1.0);
}

torch::Tensor SequencePoolingImpl::forward(const torch::Tensor& x, const torch::Tensor& mask)
{
    if (kind_ == "mean")
        return maskedMean(x, mask);
    if (kind_ == "max")
        return x.masked_fill(mask.unsqueeze(-1).logical_not(), -1e9).amax(1);
    auto projected = Activation::apply(activation_, query_(x));
    if (maskProjections_)
        projected = projected * mask.unsqueeze(-1).to(x.dtype());
    auto q = maskedMean(projected, mask);                                               // [B, d]
    auto scores = torch::bmm(x, q.unsqueeze(-1)).squeeze(-1) / std::sqrt(static_cast<double>(x.size(2)));
    auto weights = AttentionPermutation::applyTo(torch::softmax(scores.masked_fill(mask.logical_not(), -1e9), -1)); // [B, T]
    lastWeights_ = weights.detach();
    return torch::bmm(weights.unsqueeze(1), x).squeeze(1);
}

} // namespace attnlab
