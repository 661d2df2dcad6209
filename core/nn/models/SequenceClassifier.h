#pragma once
// PRIVATE engine header: includes LibTorch. Only core/*.cpp and core tests may include it.
#include "core/results/AttentionSnapshot.h"
#include "core/results/GateValues.h"

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Base of every sentence classifier module: token ids [B,T] + mask [B,T] (true = real token) -> logits [B,C].
// Attention-bearing models keep the last forward's weights when asked to, and only then; with autograd on,
// the kept weights stay in the graph (gradient-weighted attention differentiates the output by them).
class SequenceClassifier : public torch::nn::Module {
public:
    torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& mask) { return forwardEmbedded(embed(ids), mask); }
    // The same, with the rows' real lengths [B] on the host (TensorBatch::lengths): models that pack by length
    // (the recurrent ones) read them there instead of from the mask, which on a GPU would wait for the device.
    torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& mask, const torch::Tensor& hostLengths);
    // The forward in two halves, so attribution methods can take gradients with respect to the word vectors
    // and feed changed ones (integrated gradients' path): the table lookup [B,T] -> [B,T,E] (nothing else:
    // positions, dropout and projections belong to the second half), and everything after it.
    virtual torch::Tensor embed(const torch::Tensor& ids) = 0;
    virtual torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) = 0;
    // One tensor per layer, [B, heads, T, T]; empty unless recording was switched on before forward().
    virtual std::vector<torch::Tensor> recordedAttention() const { return {}; }
    virtual void setRecordAttention(bool) {}
    // Pooling weights over positions [B, T] of the last recorded forward, for models that pool by attention.
    virtual torch::Tensor recordedPooling() const { return {}; }
    virtual std::string poolingName() const { return "attention pooling"; }
    // The one position whose last-layer state the classifier reads (BERT's [CLS]: 0), or -1 where it pools
    // all of them (mean, max, attention). Attribution reads attention out from there.
    virtual int readoutPosition() const { return -1; }
    // The gates of a gated recurrent encoder over one sentence, ids [1, T] of real tokens; empty for the others.
    virtual GateValues gates(const torch::Tensor& /*ids*/) { return {}; }
    virtual std::string summary() const = 0;
    // Whether a training step of this model can be captured as a CUDA graph (CudaGraphStep): no host reads,
    // no host lengths, no shapes from the batch's values. Not the recurrent models (they pack by host lengths)
    // nor BERT's (its frozen-encoder cache keys rows on the host).
    virtual bool capturable() const { return false; }

    // Trainable parameters except the word embedding table (the thesis' convention, Table 5.4).
    std::int64_t trainableParametersWithoutEmbedding() const;
    // Runs an evaluation-mode forward with recording on and returns the first sequence's attention,
    // cropped to its real length, one map per layer and head. Leaves training mode as it found it.
    // Pooling weights of that sequence go to *pooling when the model has them.
    std::vector<AttentionMap> attentionOfFirst(const torch::Tensor& ids, const torch::Tensor& mask,
                                               std::vector<float>* pooling = nullptr);
    // The same forward, keeping its logits too [B, C] (the explainer's probabilities come with the maps
    // of the very same pass).
    std::vector<AttentionMap> attentionOfFirst(const torch::Tensor& ids, const torch::Tensor& mask,
                                               std::vector<float>* pooling, torch::Tensor* logits);

protected:
    // The host lengths of the forward in progress; undefined outside forward(ids, mask, hostLengths), and then
    // a model computes them from the mask.
    const torch::Tensor& hostLengths() const { return hostLengths_; }

private:
    torch::Tensor hostLengths_;
};

} // namespace attnlab
