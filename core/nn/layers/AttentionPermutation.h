#pragma once
#include <torch/torch.h>

namespace attnlab {

// Jain & Wallace's (2019) permutation test as a scoped switch: while one lives on this thread, every
// attention distribution the text models compute — each self-attention row, AttnSeqRep pooling, an RNN's
// attention pooling — has its weights moved among the keys: batch row b's key j takes the weight that key
// order[b][j] had. The rest of the forward pass is unchanged, so the output says how much the prediction
// depends on *which* token got which weight. Not nested; one thread's switch does not touch another's.
class AttentionPermutation {
public:
    explicit AttentionPermutation(torch::Tensor order); // [B, T] long, each row a permutation of 0..T-1
    ~AttentionPermutation();
    AttentionPermutation(const AttentionPermutation&) = delete;
    AttentionPermutation& operator=(const AttentionPermutation&) = delete;

    // weights [B, ..., T] (the last axis the keys) permuted by the active order; as they are without one.
    static torch::Tensor applyTo(const torch::Tensor& weights);
    static bool active(); // one is on for this thread
};

} // namespace attnlab
