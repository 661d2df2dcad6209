#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/results/AttentionStepByStep.h"

#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace attnlab {

class SelfAttentionImpl;

// A scoped switch, as AttentionPermutation: while one lives on this thread, every self-attention layer's forward pass
// (the lab's SelfAttention, a pretrained BertLayer) records which layer ran and on what input and mask, in order, so a
// view can take any layer and compute one head's attention step by step exactly as the model did. Not nested.
class AttentionInputRecorder {
public:
    struct Call {
        int heads = 0;  // the layer's heads
        int length = 0; // tokens of the recorded input (the queries')
        // One head and query of this layer, step by step, on the recorded input (copies held by the function).
        std::function<AttentionStepByStep(int head, int query)> steps;
        bool cross = false; // a decoder's cross-attention (CrossAttention), not self-attention
    };
    AttentionInputRecorder();
    ~AttentionInputRecorder();
    AttentionInputRecorder(const AttentionInputRecorder&) = delete;
    AttentionInputRecorder& operator=(const AttentionInputRecorder&) = delete;

    static bool active(); // a recorder is on: a layer records, and copies its input only then
    // input [B, T, d_in], mask [B, T] bool: copied (detached) when a recorder is on.
    static void record(SelfAttentionImpl* layer, const torch::Tensor& input, const torch::Tensor& mask);
    static void record(Call call);
    const std::vector<Call>& calls() const { return calls_; }
    // The recorded layer-th self-attention pass (0-based, in the order they ran), its head and query step by step.
    // Throws std::invalid_argument naming "layer:", "head:" when the model (named in the message) has no such one.
    AttentionStepByStep stepByStep(int layer, int head, int query, const std::string& model) const;
    // The same over a chosen list of calls (a translation model's encoder, decoder or cross-attention passes), owner
    // and kind naming them in the messages ("layer: the encoder has 2 self-attention layers (got 3)").
    static AttentionStepByStep stepByStep(const std::vector<Call>& calls, int layer, int head, int query, const std::string& owner,
                                          const std::string& kind);

private:
    std::vector<Call> calls_;
};

} // namespace attnlab
