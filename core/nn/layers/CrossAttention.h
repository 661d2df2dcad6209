#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/results/AttentionStepByStep.h"

#include <torch/torch.h>

namespace attnlab {

// Encoder-decoder ("cross") attention of the Transformer (Vaswani et al. 2017, 3.2.3): the decoder's states
// ask, the encoder's states answer. Multi-head scaled dot-product attention
//   head_h = softmax(Q W^Q_h (M W^K_h)^T / sqrt(d_h)) M W^V_h,   out = [head_1; ...; head_H] W^O
// with queries from the target side [B, T, d] and keys and values from the source side M [B, S, d]. Its
// weights are the model's alignment: row t is target token t's distribution over the source tokens.
// No position technique acts here: positions of two different sentences have no relative distance.
class CrossAttentionImpl : public torch::nn::Module {
public:
    struct Result {
        torch::Tensor output;  // [B, T, d]
        torch::Tensor weights; // [B, H, T, S]; zero on padded source tokens, each row sums to 1
    };

    CrossAttentionImpl(int dModel, int heads);
    // target [B, T, d], memory [B, S, d], memoryMask [B, S] bool (true = real source token).
    Result forward(const torch::Tensor& target, const torch::Tensor& memory, const torch::Tensor& memoryMask);
    // The source side's keys and values [B, H, S, dh], computed once per sentence when decoding step by step...
    std::pair<torch::Tensor, torch::Tensor> keysValues(const torch::Tensor& memory);
    // ...and attention over them; forward() is attend(target, keysValues(memory), memoryMask). While an
    // AttentionInputRecorder is on, a call records its inputs, so one head can be taken step by step after.
    Result attend(const torch::Tensor& target, const torch::Tensor& keys, const torch::Tensor& values, const torch::Tensor& memoryMask);
    // One head for one target position of batch row 0, step by step (AttentionStepByStep; keys = source tokens):
    // the target's vector, q, every k_j and v_j, q . k_j, the division, the padded source tokens, the weights and
    // what leaves the head before W^O; modelWeights is attend()'s own row.
    AttentionStepByStep stepByStep(const torch::Tensor& target, const torch::Tensor& keys, const torch::Tensor& values,
                                   const torch::Tensor& memoryMask, int head, int query);

private:
    int dModel_, heads_;
    torch::nn::Linear query_{nullptr}, key_{nullptr}, value_{nullptr}, output_{nullptr};
};
TORCH_MODULE(CrossAttention);

} // namespace attnlab
