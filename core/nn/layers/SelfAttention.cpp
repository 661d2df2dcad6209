#include "core/nn/layers/SelfAttention.h"

#include "core/nn/TorchCompat.h"
#include "core/nn/layers/Activation.h"
#include "core/nn/layers/AttentionInputRecorder.h"
#include "core/nn/layers/AttentionPermutation.h"
#include "core/nn/layers/FoldedLinear.h"
#include "core/nn/layers/PositionEncoding.h"
#include "core/nn/layers/ScaledDotProductAttention.h"

#include <cmath>

namespace attnlab {

SelfAttentionImpl::SelfAttentionImpl(const SelfAttentionOptions& options) : options_(options)
{
    TORCH_CHECK(options.heads > 0 && options.dModel % options.heads == 0, "heads (", options.heads,
                ") must divide d_model (", options.dModel, ")");
    if (!options.uniform) { // uniform attention computes no scores, so it has nothing to make q and k for
        query_ = register_module("query", torch::nn::Linear(options.inputDim, options.dModel));
        key_ = register_module("key", torch::nn::Linear(options.inputDim, options.dModel));
    }
    value_ = register_module("value", torch::nn::Linear(options.inputDim, options.dModel));
    if (options.outputProjection)
        output_ = register_module("output", torch::nn::Linear(options.dModel, options.dModel));
    const int64_t headSize = options.dModel / options.heads;
    if (options.position == "rpr") {
        TORCH_CHECK(options.rprClip >= 1, "rpr_clip must be at least 1");
        // w^K and w^V of eq. 3.8-3.9.
        const double bound = 1.0 / std::sqrt(static_cast<double>(headSize));
        torch::NoGradGuard noGrad;
        if (!options.uniform) { // a^K only enters the scores
            relKeys_ = register_parameter("rel_keys", torch::empty({2 * options.rprClip + 1, headSize}));
            relKeys_.uniform_(-bound, bound);
        }
        relValues_ = register_parameter("rel_values", torch::empty({2 * options.rprClip + 1, headSize}));
        relValues_.uniform_(-bound, bound);
    }
    TORCH_CHECK(options.window >= 0 && options.globalTokens >= 0 && (options.window > 0 || options.globalTokens == 0) &&
                    !(options.window > 0 && options.uniform),
                "attention window ", options.window, " with ", options.globalTokens, " global tokens: a window of at least 1 "
                "for global tokens, and not with uniform attention");
    if (options.position == "rope")
        TORCH_CHECK(headSize % 2 == 0, "rope needs an even head size (d_model / heads = ", headSize, ")");
}

torch::Tensor SelfAttentionImpl::Result::dense() const
{
    return keyIndex.defined() ? BandedAttention::dense(weights, keyIndex, globalWeights) : weights;
}

torch::Tensor SelfAttentionImpl::relativeIndex(int64_t length, int rprClip, const torch::Device& device)
{
    return ScaledDotProductAttention::relativeIndex(length, length, rprClip, 0, device);
}

SelfAttentionImpl::Result SelfAttentionImpl::attend(const torch::Tensor& q, const torch::Tensor& k,
                                                    const torch::Tensor& v, const torch::Tensor& mask,
                                                    const torch::Tensor& relKeys,
                                                    const torch::Tensor& relValues, int rprClip,
                                                    const torch::Tensor& bias)
{
    AttentionTerms terms;
    terms.keyMask = mask;
    terms.relativeKeys = relKeys;
    terms.relativeValues = relValues;
    terms.rprClip = rprClip;
    terms.bias = bias;
    terms.permutable = true;
    auto attended = ScaledDotProductAttention::apply(q, k, v, terms);
    return {attended.output, attended.weights};
}

SelfAttentionImpl::Result SelfAttentionImpl::forward(const torch::Tensor& x, const torch::Tensor& mask)
{
    AttentionInputRecorder::record(this, x, mask); // only while a recorder is on (a step-by-step view)
    return attendTo(x, mask);
}

torch::Tensor SelfAttentionImpl::outputOnly(const torch::Tensor& x, const torch::Tensor& mask)
{
    const bool fused = torch_compat::hasFusedAttention() && options_.causal && !mask.defined() && !options_.uniform &&
                       !options_.maskProjections && options_.window == 0 && options_.position != "rpr" &&
                       options_.position != "alibi" && !AttentionPermutation::active();
    if (!fused)
        return forward(x, mask).output;
    AttentionInputRecorder::record(this, x, mask);
    const int64_t batch = x.size(0), length = x.size(1);
    const int64_t heads = options_.heads, headSize = options_.dModel / heads;
    auto project = [&](torch::nn::Linear& layer) { // [B, T, d] -> [B, H, T, dh]
        return Activation::apply(options_.projectionActivation, FoldedLinear::apply(layer, x)).view({batch, length, heads, headSize}).transpose(1, 2);
    };
    auto q = project(query_), k = project(key_), v = project(value_);
    if (!options_.scaled) // the kernel divides by sqrt(d_k): undone on q, as attendTo() does
        q = q * std::sqrt(static_cast<double>(headSize));
    if (options_.position == "rope") {
        q = PositionEncoding::rotary(q);
        k = PositionEncoding::rotary(k);
    }
    auto output = torch_compat::fusedCausalAttention(q, k, v).transpose(1, 2).reshape({batch, length, options_.dModel});
    return output_ ? FoldedLinear::apply(output_, output) : output;
}

SelfAttentionImpl::Result SelfAttentionImpl::attendTo(const torch::Tensor& x, const torch::Tensor& mask)
{
    const int64_t batch = x.size(0), length = x.size(1);
    const int64_t heads = options_.heads, headSize = options_.dModel / heads;
    auto realPositions = options_.maskProjections ? mask.unsqueeze(-1).to(x.dtype()) : torch::Tensor();
    auto project = [&](torch::nn::Linear& layer) {
        auto y = Activation::apply(options_.projectionActivation, FoldedLinear::apply(layer, x));
        if (realPositions.defined())
            y = y * realPositions;
        return y.view({batch, length, heads, headSize}).transpose(1, 2); // [B, H, T, dh]
    };
    auto v = project(value_);
    if (options_.uniform) {
        // Equal scores for every pair: the softmax gives each real key 1/n and masks the padded ones exactly
        // as for learned scores. The value side (and RPR's a^V_ij) is unchanged.
        const auto zeros = torch::zeros({batch, heads, length, headSize}, v.options());
        auto result = attend(zeros, zeros, v, mask, torch::Tensor(), relValues_, options_.rprClip);
        result.output = result.output.transpose(1, 2).reshape({batch, length, options_.dModel});
        if (output_)
            result.output = FoldedLinear::apply(output_, result.output);
        return result;
    }
    auto q = project(query_), k = project(key_);
    if (!options_.scaled)
        q = q * std::sqrt(static_cast<double>(headSize));
    torch::Tensor bias;
    if (options_.position == "rope") {
        q = PositionEncoding::rotary(q);
        k = PositionEncoding::rotary(k);
    }
    if (options_.window > 0) { // linear in the length: never the [T, T] matrix
        const auto slopes = options_.position == "alibi" ? PositionEncoding::alibiSlopes(heads, x.options()) : torch::Tensor();
        auto banded = BandedAttention::attend(q, k, v, mask, {options_.window, options_.globalTokens, options_.causal}, relKeys_,
                                              relValues_, options_.rprClip, slopes);
        Result result{banded.output.transpose(1, 2).reshape({batch, length, options_.dModel}), banded.weights, banded.keyIndex,
                      banded.globalWeights};
        if (output_)
            result.output = FoldedLinear::apply(output_, result.output);
        return result;
    }
    if (options_.position == "alibi") {
        bias = PositionEncoding::alibiBias(heads, length, x.options());
    }
    if (options_.causal) { // -1e9 above the diagonal: exp underflows to exactly 0, as for padded keys
        auto future = torch::ones({length, length}, x.options().dtype(torch::kBool)).triu(1);
        auto causalBias = torch::zeros({1, length, length}, x.options()).masked_fill(future, -1e9);
        bias = bias.defined() ? bias + causalBias : causalBias;
    }
    auto result = attend(q, k, v, mask, relKeys_, relValues_, options_.rprClip, bias);
    result.output = result.output.transpose(1, 2).reshape({batch, length, options_.dModel});
    if (output_)
        result.output = FoldedLinear::apply(output_, result.output);
    return result;
}

SelfAttentionImpl::Result SelfAttentionImpl::step(const torch::Tensor& x, torch::Tensor& keys, torch::Tensor& values)
{
    TORCH_CHECK(options_.causal && !options_.uniform && !options_.maskProjections && options_.window == 0,
                "step: a causal layer with learned, full attention only");
    const int64_t batch = x.size(0), fresh = x.size(1), t = keys.size(2);
    const int64_t heads = options_.heads, headSize = options_.dModel / heads;
    auto project = [&](torch::nn::Linear& layer) { // [N, T, d] -> [N, H, T, dh]
        return Activation::apply(options_.projectionActivation, FoldedLinear::apply(layer, x)).view({batch, fresh, heads, headSize}).transpose(1, 2);
    };
    auto q = project(query_), k = project(key_), v = project(value_);
    if (!options_.scaled)
        q = q * std::sqrt(static_cast<double>(headSize));
    if (options_.position == "rope") {
        q = PositionEncoding::rotary(q, t);
        k = PositionEncoding::rotary(k, t);
    }
    keys = torch::cat({keys, k}, 2); // [N, H, t + T, dh]
    values = torch::cat({values, v}, 2);
    // Queries t + i over keys j <= t + i, none later: rows t .. t + T - 1 of what forward() computes over the whole
    // prefix. One new token (T = 1) may see every key, so it needs no mask.
    AttentionTerms terms;
    terms.relativeKeys = relKeys_;
    terms.relativeValues = relValues_;
    terms.rprClip = options_.rprClip;
    terms.firstQuery = t;
    terms.permutable = true;
    const bool alibi = options_.position == "alibi";
    if (alibi || fresh > 1) {
        const auto key = torch::arange(t + fresh, x.options()).view({1, 1, t + fresh});
        const auto query = torch::arange(t, t + fresh, x.options()).view({1, fresh, 1});
        if (alibi) // rows t .. t + T - 1 of alibiBias: -m_h |j - i|, [H, T, t + T]
            terms.bias = -(PositionEncoding::alibiSlopes(heads, x.options()).view({heads, 1, 1}) * (key - query).abs());
        if (fresh > 1) { // -1e9 on the later keys, as forward()'s causal bias
            const auto later = torch::zeros({1, fresh, t + fresh}, x.options()).masked_fill(key > query, -1e9);
            terms.bias = terms.bias.defined() ? terms.bias + later : later;
        }
    }
    auto attended = ScaledDotProductAttention::apply(q, keys, values, terms);
    auto output = attended.output.transpose(1, 2).reshape({batch, fresh, options_.dModel});
    if (output_)
        output = FoldedLinear::apply(output_, output);
    return {output, attended.weights};
}

AttentionStepByStep SelfAttentionImpl::stepByStep(const torch::Tensor& x, const torch::Tensor& mask, int head, int query)
{
    torch::NoGradGuard noGrad;
    TORCH_CHECK(x.dim() == 3 && mask.dim() == 2, "step by step: the layer's input is [B, T, d] and its mask [B, T] (got ", x.sizes(), ", ",
                mask.sizes(), ")");
    const int64_t length = x.size(1), heads = options_.heads, headSize = options_.dModel / heads;
    TORCH_CHECK(head >= 0 && head < heads && query >= 0 && query < length, "step by step: head ", head + 1, " of ", heads,
                ", query ", query, " of ", length, " tokens");
    auto rows = [](const torch::Tensor& t) { // [n, m] -> vector of rows
        const auto c = t.to(torch::kFloat).to(torch::kCPU).contiguous();
        std::vector<std::vector<float>> out;
        for (int64_t i = 0; i < c.size(0); ++i)
            out.emplace_back(c[i].data_ptr<float>(), c[i].data_ptr<float>() + c.size(1));
        return out;
    };
    auto vec = [](const torch::Tensor& t) {
        const auto c = t.to(torch::kFloat).to(torch::kCPU).contiguous().reshape({-1});
        return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    };
    AttentionStepByStep s;
    s.head = head;
    s.query = query;
    s.headSize = static_cast<int>(headSize);
    s.position = options_.position;
    s.scaled = options_.scaled;
    s.uniform = options_.uniform;
    const auto input = x.narrow(0, 0, 1);                   // [1, T, d_in]
    const auto real = mask.narrow(0, 0, 1).reshape({length}); // [T] bool
    s.input = vec(input[0][query]);
    // Eq. 3.1-3.3: q, k, v of this head, as forward() makes them (activation, masks, RoPE).
    auto project = [&](torch::nn::Linear& layer) {
        auto y = Activation::apply(options_.projectionActivation, layer(input));
        if (options_.maskProjections)
            y = y * real.view({1, length, 1}).to(y.dtype());
        return y.view({1, length, heads, headSize}).transpose(1, 2); // [1, H, T, dh]
    };
    auto v = project(value_).select(1, head)[0]; // [T, dh]
    s.values = rows(v);
    torch::Tensor scores = torch::zeros({length}, x.options());
    torch::Tensor index; // the RPR rows for (query, j)
    if (relKeys_.defined() || relValues_.defined())
        index = relativeIndex(length, options_.rprClip, x.device())[query];
    s.divisor = options_.scaled ? std::sqrt(static_cast<double>(headSize)) : 1.0;
    s.positionTerm.assign(static_cast<std::size_t>(length), 0.0f);
    if (!options_.uniform) {
        auto q = project(query_), k = project(key_);
        if (options_.position == "rope") {
            q = PositionEncoding::rotary(q);
            k = PositionEncoding::rotary(k);
        }
        const auto qi = q.select(1, head)[0][query]; // [dh]
        const auto keys = k.select(1, head)[0];      // [T, dh]
        s.q = vec(qi);
        s.keys = rows(keys);
        const auto dot = torch::mv(keys, qi); // q . k_j (eq. 3.4's numerator)
        s.dot = vec(dot);
        scores = dot;
        if (relKeys_.defined()) { // eq. 3.10: + q . a^K_ij
            const auto term = torch::mv(relKeys_.index_select(0, index), qi);
            s.positionTerm = vec(term);
            scores = scores + term;
        }
        scores = scores / s.divisor;
        if (options_.position == "alibi") { // -m_h |j - i|, after the division as forward() adds it
            const auto distance = (torch::arange(length, x.options()) - static_cast<double>(query)).abs();
            const auto term = -PositionEncoding::alibiSlopes(heads, x.options())[head] * distance;
            s.positionTerm = vec(term);
            scores = scores + term;
        }
    } else {
        s.dot.assign(static_cast<std::size_t>(length), 0.0f);
    }
    // The mask: padded keys, and with a causal layer every later one.
    auto hidden = real.logical_not();
    if (options_.causal)
        hidden = hidden.logical_or(torch::arange(length, x.options().dtype(torch::kLong)).gt(query));
    if (options_.window > 0) // a sliding window hides every key outside query's band
        hidden = hidden.logical_or(
            BandedAttention::bandMask(length, {options_.window, options_.globalTokens, options_.causal}, x.device())[query].logical_not());
    for (int64_t j = 0; j < length; ++j)
        s.masked.push_back(hidden[j].item<bool>());
    scores = scores.masked_fill(hidden, -1e9);
    s.scores = vec(scores);
    const auto weights = torch::softmax(scores, 0); // eq. 3.5
    s.weights = vec(weights);
    auto output = torch::mv(v.t(), weights); // sum_j w_j v_j
    if (relValues_.defined())               // eq. 3.9: + sum_j w_j a^V_ij
        output = output + torch::mv(relValues_.index_select(0, index).t(), weights);
    s.output = vec(output);
    // Not forward(): it would record this pass too, into the very list the caller may be reading x from.
    s.modelWeights = vec(attendTo(input, mask.narrow(0, 0, 1)).dense()[0][head][query]);
    return s;
}

} // namespace attnlab
