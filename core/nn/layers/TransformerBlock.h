#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/layers/SelfAttention.h"

#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace attnlab {

// One decoder block without cross-attention, the GPT block (Radford et al. 2019; nanoGPT's Block), pre-LN:
//   x += Dropout(CausalSelfAttention(LN_1(x)))
//   x += Dropout(W_2 GELU(W_1 LN_2(x)))           (left out when attentionOnly: the induction-heads models)
// Not causal, with ReLU, it is the Transformer's encoder layer (the mixed encoder-decoders' self-attention encoder).
// or post-LN, each sub-layer's sum normalised (Vaswani et al. 2017): x = LN_1(x + Dropout(Attention(x))), ...; or
// without LayerNorm; and without the residual "x +" (the lesson on what residuals and LayerNorm buy).
// forward() reads a whole window; step() one new position over the layer's key/value cache, equal to forward()'s
// row at that position (SelfAttention::step).
struct TransformerBlockOptions {
    SelfAttentionOptions attention; // causal, with W^O
    int ffnHidden = 0;              // W_1's width; 0 = 4 d
    bool attentionOnly = false;
    std::string activation = "gelu"; // the MLP's (Activation::apply)
    double residualDrop = 0.0;      // dropout probability on each branch before it is added
    std::string layerNorm = "pre";  // pre | post | none (ModelConfig::layerNorm)
    bool residual = true;
};

class TransformerBlockImpl : public torch::nn::Module {
public:
    explicit TransformerBlockImpl(const TransformerBlockOptions& options);
    // x [B, T, d] -> [B, T, d]; weights, when asked for, [B, H, T, T].
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask, torch::Tensor* weights = nullptr);
    // x [N, 1, d] at the next position; keys/values [N, H, t, dh] grow by one; weights [N, H, 1, t + 1].
    torch::Tensor step(const torch::Tensor& x, torch::Tensor& keys, torch::Tensor& values, torch::Tensor* weights = nullptr);
    // The projections whose output is added to the residual stream (W^O and W_2): GPT-2 scales their initial weights.
    std::vector<torch::Tensor> residualProjections();

private:
    torch::Tensor mlp(const torch::Tensor& x);
    // One sub-layer with its residual and LayerNorm as the options say: f is the sub-layer on its input.
    torch::Tensor around(const torch::Tensor& x, torch::nn::LayerNorm& norm,
                         const std::function<torch::Tensor(const torch::Tensor&)>& f);
    TransformerBlockOptions options_;
    torch::nn::LayerNorm norm1_{nullptr}, norm2_{nullptr};
    SelfAttention attention_{nullptr};
    torch::nn::Linear in_{nullptr}, out_{nullptr};
};
TORCH_MODULE(TransformerBlock);

} // namespace attnlab
