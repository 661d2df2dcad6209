#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/models/SequenceClassifier.h"

#include <vector>

namespace attnlab {

// Kim-style CNN (Barnes et al. baseline, thesis 5.1.4): embeddings (dropout) -> convolutions of width
// 2, 3 and 4 with `filters` maps each, ReLU -> max over time -> dropout -> ReLU layer -> softmax layer.
// Windows are taken over the real tokens followed by zeros, and only windows that start on a real token
// (at least one per sequence) are pooled, so padding never changes a result.
class CnnClassifier : public SequenceClassifier {
public:
    explicit CnnClassifier(const ModelConfig& config);
    torch::Tensor embed(const torch::Tensor& ids) override;
    torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) override;
    std::string summary() const override;
    bool capturable() const override { return true; } // everything from the mask, on the device

private:
    static constexpr int kWidths[3] = {2, 3, 4};
    ModelConfig config_;
    torch::nn::Embedding embedding_{nullptr};
    std::vector<torch::nn::Conv1d> convolutions_;
    torch::nn::Linear hidden_{nullptr}, output_{nullptr};
    DropoutPoints dropout_{nullptr};
};

} // namespace attnlab
