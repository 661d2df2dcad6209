#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// Scaled dot-product self-attention (thesis eq. 3.1-3.5) with optional relative position
// representations (eq. 3.6-3.10, Shaw et al. 2018) on keys and values. Q, K and V come from
// feed-forward layers of the input (thesis Fig. 4.1). Padded keys are masked out before the softmax.
class SelfAttentionImpl : public torch::nn::Module {
public:
    struct Result {
        torch::Tensor output;  // [B, T, d]
        torch::Tensor weights; // [B, heads, T, T]
    };

    // rprClip = 0 means no relative positions. reluProjections: SSAN's FF layers use ReLU.
    SelfAttentionImpl(int dModel, int heads, int rprClip, bool reluProjections);
    Result forward(const torch::Tensor& x, const torch::Tensor& mask);

    // The attention arithmetic on given projections, exposed for exact tests.
    // q, k, v: [B, H, T, dh]; mask: [B, T] bool; relKeys/relValues: [2k+1, dh] or undefined.
    static Result attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                         const torch::Tensor& mask, const torch::Tensor& relKeys,
                         const torch::Tensor& relValues, int rprClip);
    // [T, T] long tensor of clip(j - i, k) + k: the row of the (2k+1)-entry tables for each pair.
    static torch::Tensor relativeIndex(int64_t length, int rprClip, const torch::Device& device);

private:
    int heads_;
    int rprClip_;
    bool relu_;
    torch::nn::Linear query_{nullptr}, key_{nullptr}, value_{nullptr};
    torch::Tensor relKeys_, relValues_;
};
TORCH_MODULE(SelfAttention);

} // namespace attnlab
