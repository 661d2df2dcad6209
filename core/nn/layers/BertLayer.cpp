#include "core/nn/layers/BertLayer.h"

#include "core/nn/layers/AttentionInputRecorder.h"
#include "core/nn/layers/AttentionPermutation.h"
#include "core/nn/layers/BatchedMatmul.h"
#include "core/nn/layers/TensorConversions.h"

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

torch::Tensor BertLayerImpl::heads(const BertDense& projection, const torch::Tensor& x) const
{
    const int64_t batch = x.size(0), length = x.size(1), hidden = x.size(2);
    return projection(x).view({batch, length, heads_, hidden / heads_}).transpose(1, 2);
}

BertLayerImpl::Output BertLayerImpl::forward(const torch::Tensor& x, const torch::Tensor& additiveMask)
{
    if (AttentionInputRecorder::active()) // a step-by-step view: this layer's input, kept to take any head again
        AttentionInputRecorder::record({static_cast<int>(heads_), static_cast<int>(x.size(1)),
                                        [this, x = x.detach().clone(), mask = additiveMask.detach().clone()](int head, int query) {
                                            return stepByStep(x, mask, head, query);
                                        }});
    const int64_t batch = x.size(0), length = x.size(1), hidden = x.size(2), headSize = hidden / heads_;
    const auto q = heads(query_, x), k = heads(key_, x), v = heads(value_, x); // [B, heads, T, d_h]
    auto scores = BatchedMatmul::apply(q, k, /*transposeB=*/true) / std::sqrt(static_cast<double>(headSize)) + additiveMask;
    auto attention = torch::softmax(scores, -1);                                  // [B, heads, T, T]
    attention = AttentionPermutation::applyTo(attention);
    auto context = BatchedMatmul::apply(dropout_(attention), v);                         // [B, heads, T, d_h]
    context = context.transpose(1, 2).reshape({batch, length, hidden});           // heads concatenated
    const auto attended = attentionNorm_(x + dropout_(attentionOut_(context)));   // X'
    const auto y = outputNorm_(attended + dropout_(output_(torch::gelu(intermediate_(attended)))));
    return {y, attention};
}

AttentionStepByStep BertLayerImpl::stepByStep(const torch::Tensor& x, const torch::Tensor& additiveMask, int head, int query) const
{
    torch::NoGradGuard noGrad;
    const int64_t length = x.size(1), headSize = x.size(2) / heads_;
    TORCH_CHECK(head >= 0 && head < heads_ && query >= 0 && query < length, "step by step: head ", head + 1, " of ", heads_, ", query ",
                query, " of ", length, " tokens");
    const auto input = x.narrow(0, 0, 1);                            // [1, T, hidden]
    const auto bias = additiveMask.narrow(0, 0, 1).reshape({length}); // [T]: 0, or a large negative on padding
    const auto q = heads(query_, input), k = heads(key_, input), v = heads(value_, input);
    const auto qi = q[0][head][query], keys = k[0][head], values = v[0][head]; // [d_h], [T, d_h], [T, d_h]
    AttentionStepByStep s;
    s.head = head;
    s.query = query;
    s.headSize = static_cast<int>(headSize);
    s.position = "learned"; // BERT adds learned absolute positions to the embeddings, nothing to the scores
    s.input = hostFloats(input[0][query]);
    s.q = hostFloats(qi);
    for (int64_t j = 0; j < length; ++j) {
        s.keys.push_back(hostFloats(keys[j]));
        s.values.push_back(hostFloats(values[j]));
        s.masked.push_back(bias[j].item<float>() < 0.0f);
    }
    const auto dot = torch::mv(keys, qi); // q . k_j
    s.dot = hostFloats(dot);
    s.positionTerm.assign(static_cast<std::size_t>(length), 0.0f);
    s.divisor = std::sqrt(static_cast<double>(headSize));
    const auto hidden = bias.lt(0);
    const auto scores = (dot / s.divisor).masked_fill(hidden, -1e9);
    s.scores = hostFloats(scores);
    const auto weights = torch::softmax(scores, 0);
    s.weights = hostFloats(weights);
    s.output = hostFloats(torch::mv(values.t(), weights)); // sum_j w_j v_j, before W^O
    // The row as forward() computes it (batched, the additive mask), not through forward(): it would record again.
    const auto all = torch::softmax(BatchedMatmul::apply(q, k, true) / std::sqrt(static_cast<double>(headSize)) + additiveMask.narrow(0, 0, 1), -1);
    s.modelWeights = hostFloats(all[0][head][query]);
    return s;
}

} // namespace attnlab
