#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/results/AttentionStepByStep.h"

#include <torch/torch.h>

#include <string>
#include <vector>

namespace attnlab {

class SelfAttentionImpl;

// A scoped switch, as AttentionPermutation: while one lives on this thread, every SelfAttention forward pass
// records which layer ran, on what input and mask, in order, so a view can take any layer's input and compute one
// head's attention step by step (SelfAttentionImpl::stepByStep) exactly as the model did. Not nested.
class AttentionInputRecorder {
public:
    struct Call {
        SelfAttentionImpl* layer = nullptr;
        torch::Tensor input; // [B, T, d_in], detached
        torch::Tensor mask;  // [B, T] bool
    };
    AttentionInputRecorder();
    ~AttentionInputRecorder();
    AttentionInputRecorder(const AttentionInputRecorder&) = delete;
    AttentionInputRecorder& operator=(const AttentionInputRecorder&) = delete;

    static void record(SelfAttentionImpl* layer, const torch::Tensor& input, const torch::Tensor& mask);
    const std::vector<Call>& calls() const { return calls_; }
    // The recorded layer-th self-attention pass (0-based, in the order they ran), its head and query step by step.
    // Throws std::invalid_argument naming "layer:", "head:" when the model (named in the message) has no such one.
    AttentionStepByStep stepByStep(int layer, int head, int query, const std::string& model) const;

private:
    std::vector<Call> calls_;
};

} // namespace attnlab
