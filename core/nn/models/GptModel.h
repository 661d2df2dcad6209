#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/AbsolutePositions.h"
#include "core/nn/layers/TransformerBlock.h"
#include "core/nn/models/LanguageModel.h"

namespace attnlab {

// A decoder-only Transformer as nanoGPT's model.py builds it (Radford et al. 2018, 2019): token embeddings plus
// the position technique (learned by default; sinusoidal added alike; RPR, RoPE, ALiBi inside attention), dropout,
// ModelConfig::layers TransformerBlocks (causal, pre-LN, GELU MLP of 4 d), a final LayerNorm, and the output layer
// tied to the token table: logits = LN(x) E^T. Weights start as GPT-2's: N(0, 0.02), the projections into the
// residual stream N(0, 0.02 / sqrt(2 L)), biases 0. Unlike nanoGPT's bias=False default, the linear layers and
// norms keep their biases (the lab's SelfAttention has them).
class GptModel : public LanguageModel {
public:
    explicit GptModel(const ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) override;
    State start(std::int64_t rows) override;
    torch::Tensor step(State& state, const torch::Tensor& ids, std::vector<torch::Tensor>* attention = nullptr) override;
    int stateLimit() const override { return config_.context; }
    int attentionLayers() const override { return config_.layers; }
    int attentionHeads() const override { return config_.heads; }
    std::string summary() const override;

private:
    ModelConfig config_;
    torch::nn::Embedding tokens_{nullptr};
    AbsolutePositions positions_{nullptr};
    std::vector<TransformerBlock> blocks_;
    torch::nn::LayerNorm final_{nullptr};
    double inputDrop_;
};

} // namespace attnlab
