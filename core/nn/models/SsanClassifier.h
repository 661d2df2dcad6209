#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/AbsolutePositions.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/layers/SelfAttention.h"
#include "core/nn/layers/SequencePooling.h"
#include "core/nn/models/SequenceClassifier.h"

#include <vector>

namespace attnlab {

// The SSAN family of the thesis (chapter 4).
// SSAN (4.1, Fig. 4.1): embeddings -> N x [FF for Q,K,V -> self-attention -> FF] -> mean over real
// positions -> FF -> softmax layer. ReLU; single head; no residuals, no LayerNorm; dropout on the input
// embeddings, on each self-attention layer's output and on the sentence vector.
// ESSAN (4.2): the same with multi-head attention, Swish, the padding mask re-applied after every FF layer
// (4.2.1) and the attention-based sequence representation (AttnSeqRep) instead of the mean (pooling
// "mean" gives the "w/o AttnSeqRep" ablation). L2 (eq. 4.1) is a training setting.
class SsanClassifier : public SequenceClassifier {
public:
    SsanClassifier(const ModelConfig& config, bool extended);
    torch::Tensor embed(const torch::Tensor& ids) override;
    torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) override;
    std::vector<torch::Tensor> recordedAttention() const override { return recorded_; }
    void setRecordAttention(bool on) override { record_ = on; recorded_.clear(); }
    torch::Tensor recordedPooling() const override { return record_ ? pooling_->lastWeights() : torch::Tensor(); }
    std::string poolingName() const override { return extended_ ? "AttnSeqRep" : "attention pooling"; }
    std::string summary() const override;
    bool capturable() const override { return true; } // everything from the mask, on the device

private:
    ModelConfig config_;
    bool extended_;
    std::string activation_;
    torch::nn::Embedding embedding_{nullptr};
    AbsolutePositions positions_{nullptr};
    std::vector<SelfAttention> attention_;
    std::vector<torch::nn::Linear> afterAttention_;
    SequencePooling pooling_{nullptr};
    torch::nn::Linear sentence_{nullptr}, output_{nullptr};
    DropoutPoints dropout_{nullptr};
    bool record_ = false;
    std::vector<torch::Tensor> recorded_;
};

} // namespace attnlab
