#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/models/SequenceClassifier.h"

namespace attnlab {

// The logistic-regression baselines of Barnes et al. (thesis 5.1.4); L2 comes from the training settings.
// Bow: softmax(W counts(x) + b) over the bag of words — one weight row per vocabulary word.
// Ave: softmax(W mean_t(embedding(x_t)) + b) over the average word embedding.
class LinearClassifier : public SequenceClassifier {
public:
    explicit LinearClassifier(const ModelConfig& config);
    torch::Tensor embed(const torch::Tensor& ids) override;
    torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) override;
    std::string summary() const override;
    bool capturable() const override { return true; } // everything from the mask, on the device

private:
    ModelConfig config_;
    bool bagOfWords_;
    torch::nn::Embedding wordWeights_{nullptr}; // Bow: W's columns, looked up per token
    torch::Tensor bias_;
    torch::nn::Embedding embedding_{nullptr};   // Ave
    torch::nn::Linear output_{nullptr};
    DropoutPoints dropout_{nullptr}; // Ave only: on the embeddings when asked
};

} // namespace attnlab
