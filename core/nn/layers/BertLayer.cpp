#include "core/nn/layers/BertLayer.h"

#include "core/nn/layers/AttentionPermutation.h"
#include "core/nn/layers/BatchedMatmul.h"

#include <cmath>

namespace attnlab {

std::shared_ptr<torch::nn::Module> bertLevel(torch::nn::Module& parent, const std::string& name)
{
    return parent.register_module(name, std::make_shared<torch::nn::Module>());
}

BertDense bertDense(torch::nn::Module& parent, const std::string& name, int64_t out, int64_t in)
{
    auto level = bertLevel(parent, name);
    return {level->register_parameter("weight", torch::empty({out, in})), level->register_parameter("bias", torch::empty({out}))};
}

BertNorm bertNorm(torch::nn::Module& parent, const std::string& name, int64_t size, double eps)
{
    auto level = bertLevel(parent, name);
    return {level->register_parameter("weight", torch::empty({size})), level->register_parameter("bias", torch::empty({size})), eps};
}

BertLayerImpl::BertLayerImpl(int64_t hidden, int64_t heads, int64_t intermediate, double eps, double dropout) : heads_(heads)
{
    TORCH_CHECK(heads > 0 && hidden % heads == 0, "heads (", heads, ") must divide the hidden size (", hidden, ")");
    auto attention = bertLevel(*this, "attention");
    auto self = bertLevel(*attention, "self");
    query_ = bertDense(*self, "query", hidden, hidden);
    key_ = bertDense(*self, "key", hidden, hidden);
    value_ = bertDense(*self, "value", hidden, hidden);
    auto attentionOutput = bertLevel(*attention, "output");
    attentionOut_ = bertDense(*attentionOutput, "dense", hidden, hidden);
    attentionNorm_ = bertNorm(*attentionOutput, "LayerNorm", hidden, eps);
    intermediate_ = bertDense(*bertLevel(*this, "intermediate"), "dense", intermediate, hidden);
    auto output = bertLevel(*this, "output");
    output_ = bertDense(*output, "dense", hidden, intermediate);
    outputNorm_ = bertNorm(*output, "LayerNorm", hidden, eps);
    dropout_ = register_module("dropout", torch::nn::Dropout(dropout));
}

BertLayerImpl::Output BertLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& additiveMask)
{
    const int64_t batch = x.size(0), length = x.size(1), hidden = x.size(2), headSize = hidden / heads_;
    auto split = [&](const torch::Tensor& t) { // [B, T, hidden] -> [B, heads, T, d_h]
        return t.view({batch, length, heads_, headSize}).transpose(1, 2);
    };
    const auto q = split(query_(x)), k = split(key_(x)), v = split(value_(x));
    auto scores = BatchedMatmul::apply(q, k, /*transposeB=*/true) / std::sqrt(static_cast<double>(headSize)) + additiveMask;
    auto attention = torch::softmax(scores, -1);                                  // [B, heads, T, T]
    attention = AttentionPermutation::applyTo(attention);
    auto context = BatchedMatmul::apply(dropout_(attention), v);                         // [B, heads, T, d_h]
    context = context.transpose(1, 2).reshape({batch, length, hidden});           // heads concatenated
    const auto attended = attentionNorm_(x + dropout_(attentionOut_(context)));   // X'
    const auto y = outputNorm_(attended + dropout_(output_(torch::gelu(intermediate_(attended)))));
    return {y, attention};
}

} // namespace attnlab
