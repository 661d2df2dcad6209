#include "core/nn/layers/RecurrentAttention.h"

namespace attnlab {

RecurrentAttentionImpl::RecurrentAttentionImpl(const RecurrentAttentionOptions& options) : options_(options)
{
    const auto& s = options.score;
    TORCH_CHECK(s == "additive" || s == "dot" || s == "general" || s == "concat", "attention score '", s,
                "': expected additive, dot, general or concat");
    TORCH_CHECK(options.alignment == "global" || options.alignment == "local-m" || options.alignment == "local-p",
                "alignment '", options.alignment, "': expected global, local-m or local-p");
    TORCH_CHECK(options.alignment == "global" || options.window >= 1, "local attention needs a window D of at least 1");
    if (s == "dot")
        TORCH_CHECK(options.queryDim == options.keyDim, "dot attention needs queries and keys of one size (",
                    options.queryDim, " vs ", options.keyDim, ")");
    if (s == "additive" || s == "concat") {
        // concat's W_a [h_t; h_s] = W_q h_t + W_k h_s: the same arithmetic as Bahdanau's, named as each paper does.
        queryProjection_ = register_module("query", torch::nn::Linear(torch::nn::LinearOptions(options.queryDim, options.attentionDim).bias(false)));
        keyProjection_ = register_module("key", torch::nn::Linear(torch::nn::LinearOptions(options.keyDim, options.attentionDim).bias(s == "concat")));
        energy_ = register_module("energy", torch::nn::Linear(torch::nn::LinearOptions(options.attentionDim, 1).bias(false)));
    } else if (s == "general") {
        keyProjection_ = register_module("key", torch::nn::Linear(torch::nn::LinearOptions(options.keyDim, options.queryDim).bias(false)));
    }
    if (options.alignment == "local-p") {
        positionHidden_ = register_module("position_hidden", torch::nn::Linear(torch::nn::LinearOptions(options.queryDim, options.attentionDim).bias(false)));
        positionOut_ = register_module("position_out", torch::nn::Linear(torch::nn::LinearOptions(options.attentionDim, 1).bias(false)));
    }
}

torch::Tensor RecurrentAttentionImpl::prepareKeys(const torch::Tensor& keys)
{
    return keyProjection_ ? keyProjection_(keys) : keys;
}

RecurrentAttentionImpl::Result RecurrentAttentionImpl::forward(const torch::Tensor& query, const torch::Tensor& keys,
                                                               const torch::Tensor& prepared, const torch::Tensor& mask,
                                                               int64_t step, const torch::Tensor& sourceLengths)
{
    torch::Tensor scores; // [N, S]
    if (energy_) // v^T tanh(W q + U h_j)
        scores = energy_(torch::tanh(queryProjection_(query).unsqueeze(1) + prepared)).squeeze(-1);
    else // q^T h_j (dot) or q^T W_a h_j (general)
        scores = torch::bmm(prepared, query.unsqueeze(-1)).squeeze(-1);

    auto allowed = mask;
    torch::Tensor centre; // p_t [N, 1]
    if (options_.alignment != "global") {
        const auto last = (sourceLengths - 1).clamp_min(0).unsqueeze(1);
        if (options_.alignment == "local-m") // monotone: p_t = t, held at the last real token past the end
            centre = torch::full_like(last, static_cast<double>(step)).minimum(last);
        else // p_t = S sigmoid(v_p^T tanh(W_p h_t)), S the sentence's length (eq. 9), kept on a real token
            centre = (sourceLengths.unsqueeze(1) * torch::sigmoid(positionOut_(torch::tanh(positionHidden_(query))))).minimum(last);
        const auto positions = torch::arange(keys.size(1), scores.options()).unsqueeze(0);
        // [p_t - D, p_t + D], and at least the nearest real token, so no row is left without one.
        allowed = allowed.logical_and((positions - centre).abs() <= static_cast<double>(options_.window));
    }
    auto weights = torch::softmax(scores.masked_fill(allowed.logical_not(), -1e9), -1) * allowed; // padding exactly 0
    if (centre.defined()) {
        const double sigma = options_.window / 2.0; // eq. 10: a_t(s) = align(h_t, h_s) exp(-(s - p_t)^2 / (2 sigma^2))
        const auto positions = torch::arange(keys.size(1), scores.options()).unsqueeze(0);
        weights = weights * torch::exp(-(positions - centre).pow(2) / (2.0 * sigma * sigma));
        weights = weights / weights.sum(-1, true).clamp_min(1e-12);
    }
    auto context = torch::bmm(weights.unsqueeze(1), keys).squeeze(1);
    return {context, weights};
}

} // namespace attnlab
