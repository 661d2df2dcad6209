#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

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

private:
    std::vector<Call> calls_;
};

} // namespace attnlab
