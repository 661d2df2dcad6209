#include "core/nn/layers/BertLayer.h"

#include "core/nn/layers/AttentionPermutation.h"

#include <cmath>

namespace attnlab {

namespace {
// A plain module standing for one level of Hugging Face's parameter names ("attention", "attention.self").
std::shared_ptr<torch::nn::Module> level(torch::nn::Module& parent, const std::string& name)
{
    return parent.register_module(name, std::make_shared<torch::nn::Module>());
}
} // namespace

BertLayerImpl::BertLayerImpl(int64_t hidden, int64_t heads, int64_t intermediate, double eps, double dropout) : heads_(heads)
{
    TORCH_CHECK(heads > 0 && hidden % heads == 0, "heads (", heads, ") must divide the hidden size (", hidden, ")");
    auto attention = level(*this, "attention");
    auto self = level(*attention, "self");
    query_ = self->register_module("query", torch::nn::Linear(hidden, hidden));
    key_ = self->register_module("key", torch::nn::Linear(hidden, hidden));
    value_ = self->register_module("value", torch::nn::Linear(hidden, hidden));
    auto attentionOutput = level(*attention, "output");
    attentionOut_ = attentionOutput->register_module("dense", torch::nn::Linear(hidden, hidden));
    attentionNorm_ = attentionOutput->register_module(
        "LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden}).eps(eps)));
    intermediate_ = level(*this, "intermediate")->register_module("dense", torch::nn::Linear(hidden, intermediate));
    auto output = level(*this, "output");
    output_ = output->register_module("dense", torch::nn::Linear(intermediate, hidden));
    outputNorm_ = output->register_module("LayerNorm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden}).eps(eps)));
    dropout_ = register_module("dropout", torch::nn::Dropout(dropout));
}

BertLayerImpl::Output BertLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& additiveMask)
{
    const int64_t batch = x.size(0), length = x.size(1), hidden = x.size(2), headSize = hidden / heads_;
    auto split = [&](const torch::Tensor& t) { // [B, T, hidden] -> [B, heads, T, d_h]
        return t.view({batch, length, heads_, headSize}).transpose(1, 2);
    };
    const auto q = split(query_(x)), k = split(key_(x)), v = split(value_(x));
    auto scores = torch::matmul(q, k.transpose(-1, -2)) / std::sqrt(static_cast<double>(headSize)) + additiveMask;
    auto attention = torch::softmax(scores, -1);                                  // [B, heads, T, T]
    attention = AttentionPermutation::applyTo(attention);
    auto context = torch::matmul(dropout_(attention), v);                         // [B, heads, T, d_h]
    context = context.transpose(1, 2).reshape({batch, length, hidden});           // heads concatenated
    const auto attended = attentionNorm_(x + dropout_(attentionOut_(context)));   // X'
    const auto y = outputNorm_(attended + dropout_(output_(torch::gelu(intermediate_(attended)))));
    return {y, attention};
}

} // namespace attnlab
