#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/layers/BandedAttention.h"
#include "core/results/AttentionStepByStep.h"

#include <torch/torch.h>

#include <string>

namespace attnlab {

// Settings of one self-attention layer.
struct SelfAttentionOptions {
    int inputDim = 64;
    int dModel = 64;
    int heads = 1;
    std::string projectionActivation = "relu"; // SSAN: ReLU FF layers make Q, K, V; Transformer: none
    bool outputProjection = false;             // W^O of multi-head attention (Transformer)
    bool maskProjections = false;              // ESSAN 4.2.1: zero padded positions after every FF layer
    std::string position = "none";             // rpr | rope | alibi act inside attention; others outside
    int rprClip = 0;
    bool uniform = false; // every weight 1/n over the real keys: no query or key projection, no RPR key table
    // A decoder's masked self-attention (Vaswani et al. 2017, 3.2.3): query i sees keys j <= i only, so an
    // output never depends on a later target token. Applied as an additive -inf-like bias beside ALiBi's.
    bool causal = false;
    // False leaves out the division of the scores by sqrt(d_k) (Vaswani et al. 3.2.1), so a lesson can show what it is
    // for: q is multiplied by sqrt(d_k) before the scaled arithmetic, which then divides it away exactly.
    bool scaled = true;
    // Sliding-window attention (BandedAttention): window > 0 lets query i see keys i - window .. i + window only, plus
    // the first globalTokens positions, which see and are seen by all; computed banded, linear in the length.
    int window = 0;
    int globalTokens = 0;

    // A Transformer layer's attention (no projection activation, W^O) of width d with the model's position technique.
    static SelfAttentionOptions transformer(int d, int heads, const std::string& position, int rprClip)
    {
        SelfAttentionOptions o;
        o.inputDim = o.dModel = d;
        o.heads = heads;
        o.projectionActivation = "none";
        o.outputProjection = true;
        o.position = position;
        o.rprClip = rprClip;
        return o;
    }
};

// Scaled dot-product self-attention (thesis eq. 3.1-3.5), multi-head (section 3.2.2), with the position
// techniques that live inside attention: relative position representations on keys and values
// (eq. 3.6-3.10, Shaw et al. 2018; 2k+1 vectors of the head size shared by the heads), rotary
// embeddings of q and k, and ALiBi biases. Padded keys are masked out before the softmax.
class SelfAttentionImpl : public torch::nn::Module {
public:
    struct Result {
        torch::Tensor output;  // [B, T, d]
        torch::Tensor weights; // [B, heads, T, T]; banded attention: [B, heads, T, M] over the keys keyIndex names
        torch::Tensor keyIndex;      // banded only: [T, M] long (BandedAttention::Result)
        torch::Tensor globalWeights; // banded with global tokens: [B, heads, G, T]
        // [B, heads, T, T] in either case: what a heatmap and the recorded attention show (quadratic for a banded layer).
        torch::Tensor dense() const;
    };

    explicit SelfAttentionImpl(const SelfAttentionOptions& options);
    Result forward(const torch::Tensor& x, const torch::Tensor& mask);
    // forward()'s output [B, T, d] alone, for a caller that keeps no weights (training, scoring): a causal layer with
    // no padding (mask undefined), no permutation test on and no RPR, ALiBi or window goes through LibTorch's fused
    // attention where it has one (2.x), which never makes the [T, T] weights; otherwise forward().output.
    torch::Tensor outputOnly(const torch::Tensor& x, const torch::Tensor& mask);
    // A causal layer decoding step by step (the keys-and-values cache): x [N, T, d] are the newest positions
    // t .. t + T - 1 (T = 1 a generated token; more to read a prompt in one pass), keys and values [N, H, t, dh] the
    // earlier positions' projections (RoPE already applied to the keys), which this extends in place to t + T.
    // Output [N, T, d] and weights [N, H, T, t + T] equal rows t .. t + T - 1 of forward() over the whole prefix,
    // at O(t) instead of O(t^2) a token.
    Result step(const torch::Tensor& x, torch::Tensor& keys, torch::Tensor& values);
    // One head's attention for one query of batch row 0, step by step from this layer's own weights, on the input
    // and mask it was given (AttentionInputRecorder keeps them): q, every k and v, the dot products, the position
    // term, the division, the mask, the softmax weights and the head's output (AttentionStepByStep). Its weights
    // equal forward()'s row; modelWeights holds that row to show it.
    AttentionStepByStep stepByStep(const torch::Tensor& x, const torch::Tensor& mask, int head, int query);
    const SelfAttentionOptions& options() const { return options_; }

    // The attention arithmetic on given projections, exposed for exact tests.
    // q, k, v: [B, H, T, dh]; mask: [B, T] bool or undefined (no padding); relKeys/relValues: [2k+1, dh] or undefined;
    // bias: additive [H, T, T] (ALiBi) or undefined.
    static Result attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                         const torch::Tensor& mask, const torch::Tensor& relKeys,
                         const torch::Tensor& relValues, int rprClip, const torch::Tensor& bias = {});
    // [T, T] long tensor of clip(j - i, k) + k: the row of the (2k+1)-entry tables for each pair.
    static torch::Tensor relativeIndex(int64_t length, int rprClip, const torch::Device& device);

private:
    Result attendTo(const torch::Tensor& x, const torch::Tensor& mask); // forward() without recording its input
    SelfAttentionOptions options_;
    torch::nn::Linear query_{nullptr}, key_{nullptr}, value_{nullptr}, output_{nullptr};
    torch::Tensor relKeys_, relValues_;
};
TORCH_MODULE(SelfAttention);

} // namespace attnlab
