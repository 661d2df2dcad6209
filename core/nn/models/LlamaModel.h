#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/data/pretrained/LlamaConfig.h"
#include "core/nn/layers/LlamaBlock.h"
#include "core/nn/models/LanguageModel.h"

#include <vector>

namespace attnlab {

class GgufFile;

// A pretrained LLaMA-architecture decoder (Touvron et al. 2023; SmolLM2-135M) read from a GGUF file: the token table,
// LlamaConfig::layers LlamaBlocks (RMSNorm, grouped-query attention with rotary positions, SwiGLU), a final RMSNorm
// and the output layer tied to the token table: logits = RMSNorm(x) E^T. Dequantized to float32 on load. Inference
// only: nothing here trains it.
//
// The rotary rows: Hugging Face's LLaMA rotates the two halves of each head (x_i with x_{i + dh/2}); llama.cpp's
// conversion permutes q's and k's rows so that ggml rotates neighbours (x_2i with x_2i+1), the layout the lab's
// PositionEncoding::rotary rotates. The GGUF rows are therefore used as they are: each head's q . k, so every
// attention weight, is the reference's, while a head's q and k vectors list their dimensions in ggml's order.
class LlamaModel : public LanguageModel {
public:
    explicit LlamaModel(const LlamaConfig& config);
    // The weights from the file, every tensor checked (present, the shape the config gives, a type the reader
    // dequantizes) before any is read: a DataError names the file and the tensor.
    void load(const GgufFile& file);

    // One reading of a whole text, keeping what is asked for.
    struct Reading {
        torch::Tensor logits; // [B, T, V]
        std::vector<torch::Tensor> attention; // per layer [B, H, T, T]
        std::vector<torch::Tensor>
            residuals; // the residual stream before block 0 and after each block: L + 1 of [B, T, d]
    };
    Reading read(const torch::Tensor& ids, bool attention, bool residuals);
    // The logit lens (nostalgebraist 2020): a residual stream read out as the model's last layer reads its own,
    // RMSNorm then the tied output: [..., d] -> [..., V]. Of the last block's residual it is the model's logits.
    torch::Tensor readOut(const torch::Tensor& residual);

    // Heads knocked out from now on, a HeadAblation per layer (empty: none); in forward, read and step alike.
    void setAblations(std::vector<HeadAblation> ablations);

    torch::Tensor forward(const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) override;
    State start(std::int64_t rows) override;
    torch::Tensor step(State& state, const torch::Tensor& ids,
                       std::vector<torch::Tensor>* attention = nullptr) override;
    int stateLimit() const override { return config_.context; }
    int attentionLayers() const override { return config_.layers; }
    int attentionHeads() const override { return config_.heads; }
    std::string summary() const override;

    const LlamaConfig& config() const { return config_; }
    LlamaBlock& block(int layer) { return blocks_.at(static_cast<std::size_t>(layer)); }
    torch::nn::Embedding& tokens() { return tokens_; }

private:
    const HeadAblation& ablationOf(std::size_t layer) const;

    LlamaConfig config_;
    torch::nn::Embedding tokens_ {nullptr};
    std::vector<LlamaBlock> blocks_;
    RmsNorm final_ {nullptr};
    std::vector<HeadAblation> ablations_;
};

} // namespace attnlab
