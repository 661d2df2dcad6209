#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <string>

namespace attnlab {

// Settings of a recurrent decoder's attention over the encoder's states.
struct RecurrentAttentionOptions {
    // additive: Bahdanau et al. 2015, e_ij = v^T tanh(W s_{i-1} + U h_j). Luong et al. 2015, eq. 8:
    // dot: h_t^T h_s;  general: h_t^T W_a h_s;  concat: v_a^T tanh(W_a [h_t; h_s]) (additive with W_a split).
    std::string score = "additive";
    // global: every source token (Luong 3.1). local-m: a window of 2D+1 tokens around p_t = t (monotone);
    // local-p: around p_t = S sigmoid(v_p^T tanh(W_p h_t)) (Luong 3.2, eq. 9), weighted by a Gaussian of
    // sigma = D / 2 (eq. 10).
    std::string alignment = "global";
    int window = 2; // D of the local alignments
    int queryDim = 64;
    int keyDim = 64;
    int attentionDim = 64; // the hidden size of additive / concat scores
};

// Attention of one decoder step over a sentence's encoder states: scores, masked softmax over the real source
// tokens (and the local window), context = sum_j a_j h_j. Luong's local weights (softmax times a Gaussian) are
// renormalised to sum to 1, so every alignment the lab shows or measures is a distribution over the source.
class RecurrentAttentionImpl : public torch::nn::Module {
public:
    struct Result {
        torch::Tensor context; // [N, keyDim]
        torch::Tensor weights; // [N, S], zero on padding (and outside a local window), each row sums to 1
    };

    explicit RecurrentAttentionImpl(const RecurrentAttentionOptions& options);
    // What does not depend on the decoder step, once per sentence: U h_j (additive), W_a h_s (general),
    // the key half of concat's W_a. [N, S, keyDim] -> [N, S, *]; for dot the keys themselves.
    torch::Tensor prepareKeys(const torch::Tensor& keys);
    // query [N, queryDim] (s_{i-1} for Bahdanau, h_t for Luong), keys [N, S, keyDim], prepared from
    // prepareKeys, mask [N, S] bool, step t (0-based; local-m's p_t), sourceLengths [N] float.
    Result forward(const torch::Tensor& query, const torch::Tensor& keys, const torch::Tensor& prepared,
                   const torch::Tensor& mask, int64_t step, const torch::Tensor& sourceLengths);

    const RecurrentAttentionOptions& options() const { return options_; }

private:
    RecurrentAttentionOptions options_;
    torch::nn::Linear queryProjection_{nullptr}, keyProjection_{nullptr}, energy_{nullptr};
    torch::nn::Linear positionHidden_{nullptr}, positionOut_{nullptr}; // local-p's W_p and v_p
};
TORCH_MODULE(RecurrentAttention);

} // namespace attnlab
