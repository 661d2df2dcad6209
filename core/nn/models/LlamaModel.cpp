#include "core/nn/models/LlamaModel.h"

#include "core/data/DataError.h"
#include "core/data/pretrained/GgufFile.h"

#include <ATen/Parallel.h>

namespace attnlab {

LlamaModel::LlamaModel(const LlamaConfig& config) : config_(config)
{
    tokens_ = register_module("tokens", torch::nn::Embedding(config.vocabulary, config.width));
    for (int l = 0; l < config.layers; ++l)
        blocks_.push_back(register_module("block" + std::to_string(l),
                                          LlamaBlock(config.width, config.heads, config.kvHeads, config.headSize,
                                                     config.ffnHidden, config.ropeBase, config.rmsEps)));
    final_ = register_module("final_norm", RmsNorm(config.width, config.rmsEps));
    for (auto& p : parameters())
        p.set_requires_grad(false);
}

void LlamaModel::load(const GgufFile& file)
{
    // GGUF's names (llama.cpp's LLM_TENSOR_NAMES) for each of this model's parameters.
    std::vector<std::pair<std::string, torch::Tensor>> wanted = {{"token_embd.weight", tokens_->weight},
                                                                 {"output_norm.weight", final_->weight}};
    for (int l = 0; l < config_.layers; ++l) {
        auto& b = blocks_[static_cast<std::size_t>(l)];
        const std::string p = "blk." + std::to_string(l) + ".";
        wanted.insert(wanted.end(),
                      {{p + "attn_norm.weight", b->attentionNorm->weight},
                       {p + "attn_q.weight", b->attention->q->weight},
                       {p + "attn_k.weight", b->attention->k->weight},
                       {p + "attn_v.weight", b->attention->v->weight},
                       {p + "attn_output.weight", b->attention->o->weight},
                       {p + "ffn_norm.weight", b->ffnNorm->weight},
                       {p + "ffn_gate.weight", b->ffn->gate->weight},
                       {p + "ffn_up.weight", b->ffn->up->weight},
                       {p + "ffn_down.weight", b->ffn->down->weight}});
    }
    if (!config_.tiedOutput)
        throw DataError(file.path(), 0,
                        "tensor 'output.weight': an output layer apart from the token table is not supported");
    std::vector<const GgufTensor*> sources;
    for (const auto& [name, parameter] : wanted) {
        const GgufTensor& t = file.require(name);
        if (t.shape() != parameter.sizes().vec()) {
            std::string expected, found;
            for (auto d : parameter.sizes())
                expected += (expected.empty() ? "" : " x ") + std::to_string(d);
            for (auto d : t.shape())
                found += (found.empty() ? "" : " x ") + std::to_string(d);
            throw DataError(file.path(), 0,
                            "tensor '" + name + "' is " + found + ", the model's sizes need " + expected);
        }
        if (!GgufFile::canDequantize(t.type))
            file.dequantize(t, nullptr); // throws, naming the tensor and its type
        sources.push_back(&t);
    }
    // Each tensor dequantized straight into its parameter (contiguous float32 on the CPU), several at once.
    torch::NoGradGuard noGrad;
    at::parallel_for(0, static_cast<int64_t>(wanted.size()), 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            file.dequantize(*sources[static_cast<std::size_t>(i)],
                            wanted[static_cast<std::size_t>(i)].second.data_ptr<float>());
    });
}

void LlamaModel::setAblations(std::vector<HeadAblation> ablations)
{
    ablations_ = std::move(ablations);
}

const HeadAblation& LlamaModel::ablationOf(std::size_t layer) const
{
    static const HeadAblation none;
    return layer < ablations_.size() ? ablations_[layer] : none;
}

LlamaModel::Reading LlamaModel::read(const torch::Tensor& ids, bool attention, bool residuals)
{
    TORCH_CHECK(ids.size(1) <= config_.context, "a text of ", ids.size(1), " tokens is longer than the context ",
                config_.context);
    Reading out;
    auto x = tokens_->forward(ids); // [B, T, d]
    if (residuals)
        out.residuals.push_back(x);
    for (std::size_t l = 0; l < blocks_.size(); ++l) {
        torch::Tensor weights;
        x = blocks_[l]->forward(x, nullptr, nullptr, attention ? &weights : nullptr, ablationOf(l));
        if (attention)
            out.attention.push_back(weights);
        if (residuals)
            out.residuals.push_back(x);
    }
    out.logits = readOut(x);
    return out;
}

torch::Tensor LlamaModel::readOut(const torch::Tensor& residual)
{
    return torch::matmul(final_->forward(residual), tokens_->weight.t()); // tied: [..., V]
}

torch::Tensor LlamaModel::forward(const torch::Tensor& ids, std::vector<torch::Tensor>* attention)
{
    auto reading = read(ids, attention != nullptr, false);
    if (attention)
        *attention = std::move(reading.attention);
    return reading.logits;
}

LanguageModel::State LlamaModel::start(std::int64_t rows)
{
    // Per layer its keys then its values, [N, H_kv, 0, dh]: LanguageModel's one state layout, which select() reorders.
    State state;
    const auto options = tokens_->weight.options();
    for (int l = 0; l < config_.layers; ++l)
        for (int kv = 0; kv < 2; ++kv)
            state.tensors.push_back(torch::zeros({rows, config_.kvHeads, 0, config_.headSize}, options));
    return state;
}

torch::Tensor LlamaModel::step(State& state, const torch::Tensor& ids, std::vector<torch::Tensor>* attention)
{
    const std::int64_t fresh = ids.size(1);
    TORCH_CHECK(state.position + fresh <= config_.context, "the state holds ", config_.context, " tokens, the context");
    auto x = tokens_->forward(ids);
    for (std::size_t l = 0; l < blocks_.size(); ++l) {
        torch::Tensor weights;
        torch::Tensor& keys = state.tensors[2 * l];
        torch::Tensor& values = state.tensors[2 * l + 1];
        x = blocks_[l]->forward(x, &keys, &values, attention ? &weights : nullptr, ablationOf(l));
        if (attention)
            attention->push_back(weights.narrow(2, fresh - 1, 1)); // the last position's rows
    }
    state.position += fresh;
    return readOut(x.select(1, fresh - 1)); // [N, V]
}

std::string LlamaModel::summary() const
{
    return "LLaMA decoder" + (config_.name.empty() ? std::string() : " (" + config_.name + ")") + ": " +
        std::to_string(config_.layers) + " layers x " + std::to_string(config_.heads) + " heads (" +
        std::to_string(config_.kvHeads) + " key/value heads), d_model " + std::to_string(config_.width) +
        ", SwiGLU of " + std::to_string(config_.ffnHidden) + ", RoPE base " +
        std::to_string(static_cast<long long>(config_.ropeBase)) + ", context " + std::to_string(config_.context) +
        ", tied output over " + std::to_string(config_.vocabulary) + " tokens";
}

} // namespace attnlab
