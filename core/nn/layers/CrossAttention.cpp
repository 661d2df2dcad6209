#include "core/nn/layers/CrossAttention.h"

#include "core/nn/layers/AttentionInputRecorder.h"
#include "core/nn/layers/ScaledDotProductAttention.h"

#include <cmath>

namespace attnlab {

CrossAttentionImpl::CrossAttentionImpl(int dModel, int heads) : dModel_(dModel), heads_(heads)
{
    TORCH_CHECK(heads > 0 && dModel % heads == 0, "heads (", heads, ") must divide d_model (", dModel, ")");
    query_ = register_module("query", torch::nn::Linear(dModel, dModel));
    key_ = register_module("key", torch::nn::Linear(dModel, dModel));
    value_ = register_module("value", torch::nn::Linear(dModel, dModel));
    output_ = register_module("output", torch::nn::Linear(dModel, dModel));
}

std::pair<torch::Tensor, torch::Tensor> CrossAttentionImpl::keysValues(const torch::Tensor& memory)
{
    const int64_t batch = memory.size(0), sourceLength = memory.size(1), headSize = dModel_ / heads_;
    auto split = [&](const torch::Tensor& x) { // [B, S, d] -> [B, H, S, dh]
        return x.view({batch, sourceLength, heads_, headSize}).transpose(1, 2);
    };
    return {split(key_(memory)), split(value_(memory))};
}

CrossAttentionImpl::Result CrossAttentionImpl::attend(const torch::Tensor& target, const torch::Tensor& k, const torch::Tensor& v,
                                                      const torch::Tensor& memoryMask)
{
    const int64_t batch = target.size(0), targetLength = target.size(1), headSize = dModel_ / heads_;
    if (AttentionInputRecorder::active()) {
        AttentionInputRecorder::Call call;
        call.heads = heads_;
        call.length = static_cast<int>(targetLength);
        call.cross = true;
        call.steps = [this, target = target.detach().clone(), k = k.detach().clone(), v = v.detach().clone(),
                      mask = memoryMask.detach().clone()](int head, int query) { return stepByStep(target, k, v, mask, head, query); };
        AttentionInputRecorder::record(std::move(call));
    }
    auto q = query_(target).view({batch, targetLength, heads_, headSize}).transpose(1, 2); // [B, H, T, dh]
    AttentionTerms terms;
    terms.keyMask = memoryMask; // padded source tokens get no weight
    auto attended = ScaledDotProductAttention::apply(q, k, v, terms); // [B, H, T, dh], weights [B, H, T, S]
    return {output_(attended.output.transpose(1, 2).reshape({batch, targetLength, dModel_})), attended.weights};
}

AttentionStepByStep CrossAttentionImpl::stepByStep(const torch::Tensor& target, const torch::Tensor& keys, const torch::Tensor& values,
                                                   const torch::Tensor& memoryMask, int head, int query)
{
    torch::NoGradGuard noGrad;
    const int64_t targetLength = target.size(1), sourceLength = keys.size(2), headSize = dModel_ / heads_;
    TORCH_CHECK(head >= 0 && head < heads_ && query >= 0 && query < targetLength, "step by step: head ", head + 1, " of ", heads_,
                ", query ", query, " of ", targetLength, " target tokens");
    auto floats = [](const torch::Tensor& t) {
        const auto c = t.to(torch::kFloat).to(torch::kCPU).contiguous().reshape({-1});
        return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    };
    auto rows = [&](const torch::Tensor& t) { // [n, m] -> n rows
        std::vector<std::vector<float>> out;
        for (int64_t i = 0; i < t.size(0); ++i)
            out.push_back(floats(t[i]));
        return out;
    };
    AttentionStepByStep s;
    s.head = head;
    s.query = query;
    s.headSize = static_cast<int>(headSize);
    s.position = "none"; // two sentences' positions have no distance between them
    const auto y = target[0][query];                                          // [d]
    const auto q = query_(y).view({heads_, headSize})[head];                  // q = y W^Q_h  [dh]
    const auto k = keys[0][head], v = values[0][head];                        // [S, dh]: M W^K_h, M W^V_h
    s.input = floats(y);
    s.q = floats(q);
    s.keys = rows(k);
    s.values = rows(v);
    const auto dot = torch::mv(k, q); // q . k_j
    s.dot = floats(dot);
    s.positionTerm.assign(static_cast<std::size_t>(sourceLength), 0.0f);
    s.divisor = std::sqrt(static_cast<double>(headSize));
    const auto hidden = memoryMask[0].logical_not(); // padded source tokens
    for (int64_t j = 0; j < sourceLength; ++j)
        s.masked.push_back(hidden[j].item<bool>());
    const auto scores = (dot / s.divisor).masked_fill(hidden, -1e9);
    s.scores = floats(scores);
    const auto weights = torch::softmax(scores, 0);
    s.weights = floats(weights);
    s.output = floats(torch::mv(v.t(), weights)); // sum_j w_j v_j
    AttentionTerms terms; // the model's own row, computed as attend() computes it (not attend(): it would record)
    terms.keyMask = memoryMask.narrow(0, 0, 1);
    const auto all = query_(target.narrow(0, 0, 1)).view({1, targetLength, heads_, headSize}).transpose(1, 2);
    s.modelWeights = floats(ScaledDotProductAttention::apply(all, keys.narrow(0, 0, 1), values.narrow(0, 0, 1), terms).weights[0][head][query]);
    return s;
}

CrossAttentionImpl::Result CrossAttentionImpl::forward(const torch::Tensor& target, const torch::Tensor& memory,
                                                       const torch::Tensor& memoryMask)
{
    const auto [keys, values] = keysValues(memory);
    return attend(target, keys, values, memoryMask);
}

} // namespace attnlab
