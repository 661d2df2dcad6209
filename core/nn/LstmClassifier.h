#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/ModelConfig.h"
#include "core/nn/SequenceClassifier.h"

namespace attnlab {

// LSTM baseline of Barnes et al. (2017): embeddings (dropout) -> LSTM -> state at the last real token
// -> ReLU feed-forward of ffHidden units -> softmax layer. Right padding never reaches that state.
class LstmClassifier : public SequenceClassifier {
public:
    explicit LstmClassifier(const ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& mask) override;
    std::string summary() const override;

private:
    ModelConfig config_;
    torch::nn::Embedding embedding_{nullptr};
    torch::nn::LSTM lstm_{nullptr};
    torch::nn::Linear hidden_{nullptr}, output_{nullptr};
    torch::nn::Dropout dropout_{nullptr};
};

} // namespace attnlab
