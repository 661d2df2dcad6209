#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/ModelConfig.h"
#include "core/nn/SelfAttention.h"
#include "core/nn/SequenceClassifier.h"

#include <vector>

namespace attnlab {

// SSAN (thesis section 4.1, Fig. 4.1): embeddings -> N x [FF for Q,K,V -> self-attention -> FF]
// -> mean over real positions -> FF -> softmax layer. ReLU; no residuals, no LayerNorm; dropout on
// the input embeddings, on each self-attention layer's output and on the sentence vector.
class SsanClassifier : public SequenceClassifier {
public:
    explicit SsanClassifier(const ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& mask) override;
    std::vector<torch::Tensor> recordedAttention() const override { return recorded_; }
    void setRecordAttention(bool on) override { record_ = on; recorded_.clear(); }
    std::string summary() const override;

private:
    ModelConfig config_;
    torch::nn::Embedding embedding_{nullptr};
    std::vector<SelfAttention> attention_;
    std::vector<torch::nn::Linear> afterAttention_;
    torch::nn::Linear sentence_{nullptr}, output_{nullptr};
    torch::nn::Dropout dropout_{nullptr};
    bool record_ = false;
    std::vector<torch::Tensor> recorded_;
};

} // namespace attnlab
