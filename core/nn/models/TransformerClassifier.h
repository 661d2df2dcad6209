#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/AbsolutePositions.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/layers/SelfAttention.h"
#include "core/nn/layers/SequencePooling.h"
#include "core/nn/models/SequenceClassifier.h"

#include <functional>
#include <string>
#include <vector>

namespace attnlab {

// Transformer encoder (Vaswani et al. 2017, thesis 3.2.2) as a classifier: N x [multi-head attention with
// W^O -> residual + LayerNorm -> position-wise FFN -> residual + LayerNorm] -> pooling -> softmax layer.
// An input projection is added only when the word vectors' width differs from d_model. ModelConfig::layerNorm and
// ::residual change each sub-layer's wrapping: LayerNorm before it (pre, then one more before the pooling, as
// GPT-2's final LayerNorm) or none, and the sum with its input left out.
class TransformerClassifier : public SequenceClassifier {
public:
    explicit TransformerClassifier(const ModelConfig& config);
    torch::Tensor embed(const torch::Tensor& ids) override;
    torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) override;
    std::vector<torch::Tensor> recordedAttention() const override { return recorded_; }
    void setRecordAttention(bool on) override { record_ = on; recorded_.clear(); }
    torch::Tensor recordedPooling() const override { return record_ ? pooling_->lastWeights() : torch::Tensor(); }
    std::string summary() const override;
    bool capturable() const override { return true; } // everything from the mask, on the device

private:
    ModelConfig config_;
    std::string activation_;
    // x -> LN(x + f(x)) (post), x + f(LN(x)) (pre), x + f(x) (none); without the residual, the same without "x +".
    torch::Tensor sublayer(const torch::Tensor& x, torch::nn::LayerNorm& norm,
                           const std::function<torch::Tensor(const torch::Tensor&)>& f);
    torch::nn::Embedding embedding_{nullptr};
    torch::nn::Linear inputProjection_{nullptr};
    AbsolutePositions positions_{nullptr};
    std::vector<SelfAttention> attention_;
    std::vector<torch::nn::LayerNorm> attentionNorm_, ffnNorm_; // empty without LayerNorm
    torch::nn::LayerNorm finalNorm_{nullptr};                   // pre-LN only
    std::string layerNorm_;
    std::vector<torch::nn::Linear> ffnIn_, ffnOut_;
    SequencePooling pooling_{nullptr};
    torch::nn::Linear output_{nullptr};
    DropoutPoints dropout_{nullptr};
    bool record_ = false;
    std::vector<torch::Tensor> recorded_;
};

} // namespace attnlab
