#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// What an attention head adds to plain scaled dot-product attention: each optional.
struct AttentionTerms {
    torch::Tensor keyMask;        // [B, S] bool, true = a real key; undefined: every key is real
    torch::Tensor relativeKeys;   // a^K table [2k+1, dh] (thesis eq. 3.8), or undefined
    torch::Tensor relativeValues; // a^V table [2k+1, dh] (eq. 3.9), or undefined
    int rprClip = 0;              // k
    int64_t firstQuery = 0;       // the first query's position: a step over a cache asks from position t, not 0
    torch::Tensor bias;           // additive [H or 1, T, S] after the scaling (ALiBi, the causal mask), or undefined
    bool permutable = false;      // AttentionPermutation may shuffle the weights (a self-attention permutation test)
};

// The one multi-head attention core of the lab's Transformers (thesis eq. 3.1-3.5, 3.10; Vaswani et al. 2017, 3.2):
//   e_ij = (q_i . k_j + q_i . a^K_ij) / sqrt(d_h) + bias_ij,   alpha_ij = softmax_j(e_ij)  (masked keys: 0)
//   z_i  = sum_j alpha_ij (v_j + a^V_ij)
// with a^K_ij, a^V_ij the rows clip(j - i, k) + k of the relative tables (Shaw et al. 2018). Self-attention over a
// whole window, its cached step (one query over the keys so far) and cross-attention (target queries, source keys)
// all compute here; their layers only make q, k, v and the bias. Grouped-query attention (Ainslie et al. 2023;
// LLaMA 2/3, SmolLM2): k and v may have fewer heads than q, H_kv dividing H; query head h then reads key/value
// head h / (H / H_kv), as a group of H / H_kv query heads shares one (HF's repeat_kv, llama.cpp's broadcast).
class ScaledDotProductAttention {
public:
    struct Result {
        torch::Tensor output;  // [B, H, T, dh]
        torch::Tensor weights; // [B, H, T, S]; zero on masked keys, each row sums to 1
    };
    // q [B, H, T, dh]; k, v [B, H_kv, S, dh] with H_kv dividing H (H_kv = H: multi-head attention).
    static Result apply(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v, const AttentionTerms& terms = {});
    // [T, S] long: clip(j - (firstQuery + i), k) + k, the row of the (2k+1)-entry tables for each pair.
    static torch::Tensor relativeIndex(int64_t queries, int64_t keys, int rprClip, int64_t firstQuery, const torch::Device& device);
    // kv [B, H_kv, S, dh] -> [B, H, S, dh]: each key/value head repeated for the H / H_kv query heads of its group
    // (heads h*G .. h*G + G-1 read head h); the tensor itself when H_kv = H. Throws naming both counts otherwise.
    static torch::Tensor sharedByQueryHeads(const torch::Tensor& kv, int64_t queryHeads);
};

} // namespace attnlab
