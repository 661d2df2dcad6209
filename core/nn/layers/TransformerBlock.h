#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/layers/CrossAttention.h"
#include "core/nn/layers/SelfAttention.h"

#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace attnlab {

// The Transformer layer, one module for its three uses (Vaswani et al. 2017, 3.1), pre-LN:
//   x += Dropout(SelfAttention(LN_1(x)))                   causal in a decoder
//   x += Dropout(CrossAttention(LN_c(x), memory))          a translation decoder's only (crossAttention)
//   x += Dropout(W_2 Dropout_ffn(act(W_1 LN_2(x))))        left out when attentionOnly (the induction-heads models)
// Not causal, without cross-attention: the encoder layer (TransformerSeq2Seq's encoder, the mixed models'
// SelfAttentionEncoder). Causal with it: the translation decoder layer. Causal without it, GELU: the GPT block
// (Radford et al. 2019; nanoGPT's Block). Or post-LN, each sub-layer's sum normalised (Vaswani et al. 2017):
// x = LN_1(x + Dropout(Attention(x))), ...; or without LayerNorm; and without the residual "x +" (the lesson on what
// residuals and LayerNorm buy). forward() reads a whole window; step() one new position over the layer's key/value
// cache, equal to forward()'s row at that position (SelfAttention::step).
struct TransformerBlockOptions {
    SelfAttentionOptions attention; // causal, with W^O
    int ffnHidden = 0;              // W_1's width; 0 = 4 d
    bool attentionOnly = false;
    bool crossAttention = false;     // a translation decoder's layer: attention over the encoder's states
    std::string activation = "gelu"; // the MLP's (Activation::apply)
    double residualDrop = 0.0;      // dropout probability on each branch before it is added
    double ffnDrop = 0.0;           // and between the MLP's two layers (The Annotated Transformer's FFN)
    std::string layerNorm = "pre";  // pre | post | none (ModelConfig::layerNorm)
    bool residual = true;
};

// The source side a decoder layer's cross-attention reads: its keys and values [N, H, S, dh], made once a sentence
// (TransformerBlockImpl::memoryOf), and which source tokens are real [N, S].
struct AttentionMemory {
    torch::Tensor keys, values, mask;
};

class TransformerBlockImpl : public torch::nn::Module {
public:
    explicit TransformerBlockImpl(const TransformerBlockOptions& options);
    // x [B, T, d] -> [B, T, d]; weights, when asked for, [B, H, T, T]; with cross-attention (memory given) its
    // weights, when asked for, [B, H, T, S].
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask, torch::Tensor* weights = nullptr,
                          const AttentionMemory* memory = nullptr, torch::Tensor* crossWeights = nullptr);
    // x [N, 1, d] at the next position; keys/values [N, H, t, dh] grow by one; weights [N, H, 1, t + 1]; cross
    // weights [N, H, 1, S].
    torch::Tensor step(const torch::Tensor& x, torch::Tensor& keys, torch::Tensor& values, torch::Tensor* weights = nullptr,
                       const AttentionMemory* memory = nullptr, torch::Tensor* crossWeights = nullptr);
    // The encoder's states [N, S, d] (and mask [N, S]) as this layer's cross-attention reads them.
    AttentionMemory memoryOf(const torch::Tensor& states, const torch::Tensor& mask);
    // The projections whose output is added to the residual stream (W^O and W_2): GPT-2 scales their initial weights.
    std::vector<torch::Tensor> residualProjections();

private:
    // The sub-layers after self-attention: cross-attention (a decoder's), then the MLP.
    torch::Tensor rest(const torch::Tensor& x, const AttentionMemory* memory, torch::Tensor* crossWeights);
    // One sub-layer with its residual and LayerNorm as the options say: f is the sub-layer on its input.
    torch::Tensor around(const torch::Tensor& x, torch::nn::LayerNorm& norm,
                         const std::function<torch::Tensor(const torch::Tensor&)>& f);
    TransformerBlockOptions options_;
    torch::nn::LayerNorm norm1_{nullptr}, crossNorm_{nullptr}, norm2_{nullptr};
    SelfAttention attention_{nullptr};
    CrossAttention cross_{nullptr};
    torch::nn::Linear in_{nullptr}, out_{nullptr};
};
TORCH_MODULE(TransformerBlock);

} // namespace attnlab
