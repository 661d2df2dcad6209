#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <vector>

namespace attnlab {

// Heads knocked out of a layer (an intervention: what the model does without them). Zero sets a head's output z_h
// to 0 before W^O; Mean sets it to its mean over the positions of the text read (TransformerLens's mean ablation,
// over the one text rather than a reference set). The attention weights are still the model's own.
struct HeadAblation {
    std::vector<int> heads; // 0-based heads of this layer
    bool mean = false;
    bool empty() const { return heads.empty(); }
};

// A causal self-attention layer as the LLaMA family builds it (Touvron et al. 2023; SmolLM2): no biases, rotary
// positions (base b) on q and k, grouped-query attention (H query heads, H_kv key/value heads), the scores through
// the lab's one core (ScaledDotProductAttention: q . k / sqrt(d_h), the causal mask as a bias, softmax, weighted v),
// the heads joined and projected by W^O. The cache of a written text is the keys (rotated) and values of every
// position read so far, [N, H_kv, S, d_h] each, extended in place by each call.
class GroupedQueryAttentionImpl : public torch::nn::Module {
public:
    GroupedQueryAttentionImpl(int64_t width, int64_t heads, int64_t kvHeads, int64_t headSize, double ropeBase);

    // What a head computes from the layer's input, before the scores: q and k before and after their rotation,
    // and v. [B, H, T, dh] for q, [B, H_kv, T, dh] for k and v. Positions offset .. offset + T - 1.
    struct Projections {
        torch::Tensor query, key, rotatedQuery, rotatedKey, value;
    };
    Projections project(const torch::Tensor& x, int64_t offset);

    // x [B, T, d] -> [B, T, d]. keys/values: the cache (undefined = read the whole text from position 0); weights,
    // when asked for: [B, H, T, S].
    torch::Tensor forward(const torch::Tensor& x, torch::Tensor* keys = nullptr, torch::Tensor* values = nullptr,
                          torch::Tensor* weights = nullptr, const HeadAblation& ablation = {});

    // The additive causal bias of T queries at offset .. offset + T - 1 over S = offset + T keys: 0, or -inf where
    // the key comes after the query. [1, T, S].
    static torch::Tensor causalBias(int64_t queries, int64_t offset, const torch::TensorOptions& options);

    int64_t heads() const { return heads_; }
    int64_t kvHeads() const { return kvHeads_; }
    int64_t headSize() const { return headSize_; }
    double ropeBase() const { return ropeBase_; }

    torch::nn::Linear q {nullptr}, k {nullptr}, v {nullptr}, o {nullptr};

private:
    int64_t heads_, kvHeads_, headSize_;
    double ropeBase_;
};
TORCH_MODULE(GroupedQueryAttention);

} // namespace attnlab
