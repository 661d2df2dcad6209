#pragma once
// PRIVATE engine header: includes LibTorch. Only core/*.cpp and core tests may include it.
#include "core/results/AttentionSnapshot.h"

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Base of every encoder-decoder. Source ids [B, S] with mask [B, S] (true = real token; no <bos> or
// <eos> on the source side, so an alignment's columns are the source's own tokens); target ids with <bos> first.
// Target vocabulary ids: 0 <pad>, 1 <unk>, 2 <bos>, 3 <eos> (kBos, kEos), then the words.
//
// Decoding is step by step through encode / start / step, over tensors that are all batch-first, so a beam
// reorders or repeats hypotheses by selecting rows (select). Training is one teacher-forced pass (forward).
class Seq2SeqModel : public torch::nn::Module {
public:
    static constexpr std::int64_t kBos = 2;
    static constexpr std::int64_t kEos = 3;

    // What the decoder reads from the source: every tensor [N, ...] (rows = sentences or hypotheses).
    struct Encoded {
        torch::Tensor memory;  // [N, S, d]: the encoder's states
        torch::Tensor mask;    // [N, S] bool
        torch::Tensor lengths; // [N] float: real source lengths (local attention's S, its last position)
        std::vector<torch::Tensor> extra; // model-specific, per row (prepared attention keys, ...)
    };
    // The decoder's running state, every tensor [N, ...] (hidden states; the Transformer: the target prefix).
    struct DecoderState {
        std::vector<torch::Tensor> tensors;
    };
    struct StepOutput {
        torch::Tensor logits;    // [N, V] for the next token
        torch::Tensor attention; // [N, layers * heads, S] cross-attention of this step; undefined without attention
    };
    // A step up to the output layer: what the output layer reads ([N, F]), and the step's cross-attention.
    struct StepFeatures {
        torch::Tensor features;
        torch::Tensor attention;
    };
    // A teacher-forced pass with every attention kept (for one probe, a typed sentence, a forced target).
    struct Forced {
        torch::Tensor logits;                        // [B, T, V]
        std::vector<torch::Tensor> cross;            // per layer [B, H, T, S]; empty without attention
        std::vector<torch::Tensor> encoderSelf;      // per layer [B, H, S, S] (the Transformer)
        std::vector<torch::Tensor> decoderSelf;      // per layer [B, H, T, T] (the Transformer, causal)
    };

    virtual Encoded encode(const torch::Tensor& source, const torch::Tensor& sourceMask) = 0;
    virtual DecoderState start(const Encoded& encoded) = 0;
    // previous: [N] the token before the one predicted (kBos at step 0); step: its 0-based position.
    virtual StepFeatures advance(const Encoded& encoded, DecoderState& state, const torch::Tensor& previous, int64_t step) = 0;
    // The output layer, with its dropout: features [..., F] -> logits [..., V].
    virtual torch::Tensor project(const torch::Tensor& features) = 0;
    // One decoding step: advance, then project.
    StepOutput step(const Encoded& encoded, DecoderState& state, const torch::Tensor& previous, int64_t step);
    // What the output layer reads, [B, T, F], for targetIn [B, T] (<bos> w_1 ... w_{T-1}); training projects only
    // the real (unpadded) positions of it. teacherForcing < 1 (recurrent decoders): at each step, with probability
    // 1 - ratio for the whole batch, the model's own previous guess is fed instead.
    virtual torch::Tensor features(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn,
                                   double teacherForcing = 1.0);
    // The same, with the source rows' real lengths [B] on the host (PairBatch::sourceLengths): the recurrent
    // encoders pack by them, and reading them back from a GPU mask would make every training step wait.
    torch::Tensor features(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& hostSourceLengths,
                           const torch::Tensor& targetIn, double teacherForcing);
    // Logits [B, T, V] at every position: project(features(...)).
    torch::Tensor forward(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn,
                          double teacherForcing = 1.0);
    torch::Tensor forward(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& hostSourceLengths,
                          const torch::Tensor& targetIn, double teacherForcing);
    virtual Forced forced(const torch::Tensor& source, const torch::Tensor& sourceMask, const torch::Tensor& targetIn) = 0;
    // Cross-attention layers and heads (1 x 1 for the recurrent ones with attention; 0 for none).
    virtual int attentionLayers() const = 0;
    virtual int attentionHeads() const = 0;
    // Whether forced() has self-attention to show besides the cross-attention that decoding already returns.
    virtual bool hasSelfAttention() const { return false; }
    virtual std::string summary() const = 0;

    // Rows of everything, in the order of index [M] (long): a beam's reorder, or each sentence repeated K times.
    static Encoded select(const Encoded& encoded, const torch::Tensor& index);
    static void select(DecoderState& state, const torch::Tensor& index);
    // The first sentence's attention as one AttentionMap per layer and head, cropped to rows x columns (square:
    // a self-attention map, else a rectangular cross-attention one).
    static std::vector<AttentionMap> mapsOfFirst(const std::vector<torch::Tensor>& layers, int64_t rows, int64_t columns, bool square);
    // Trainable parameters except the two word tables (the thesis' convention, Table 5.4).
    std::int64_t trainableParametersWithoutEmbedding() const;

protected:
    // The host lengths of the forward in progress; undefined outside forward(..., hostSourceLengths, ...), and
    // then an encoder reads them from the mask.
    const torch::Tensor& hostSourceLengths() const { return hostSourceLengths_; }

private:
    torch::Tensor hostSourceLengths_;
};

} // namespace attnlab
