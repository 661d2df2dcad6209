#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/models/SequenceClassifier.h"

#include <vector>

namespace attnlab {

// Convolutions over time, each map max-pooled over the whole sentence (Kim 2014). Two members of the family:
// - Kim's CNN (`kim-cnn`): widths 3, 4, 5 with `filters` maps each, ReLU, max over time, dropout, the softmax
//   layer, whose weight rows are rescaled to an L2 norm of at most 3 before every forward pass (Kim's constraint,
//   applied after each update there: the same weights reach every prediction).
// - The lab's earlier `cnn` (`cnn-max-over-time`): widths 2, 3, 4, max over time, then a ReLU layer of ff_hidden
//   before the softmax; kept so its stored runs and checkpoints load as they were trained.
// Windows are taken over the real tokens followed by zeros, and only windows that start on a real token
// (at least one per sequence) are pooled, so padding never changes a result.
class KimCnnClassifier : public SequenceClassifier {
public:
    enum class Variant { Kim, EarlierLabCnn };
    KimCnnClassifier(const ModelConfig& config, Variant variant);
    torch::Tensor embed(const torch::Tensor& ids) override;
    torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) override;
    std::string summary() const override;
    // Everything from the mask, on the device; Kim's rescaling writes the weights in place, so not captured.
    bool capturable() const override { return variant_ == Variant::EarlierLabCnn; }

    static constexpr double kMaxNorm = 3.0; // Kim's s

private:
    Variant variant_;
    std::vector<int> widths_;
    ModelConfig config_;
    torch::nn::Embedding embedding_ {nullptr};
    std::vector<torch::nn::Conv1d> convolutions_;
    torch::nn::Linear hidden_ {nullptr}, output_ {nullptr};
    DropoutPoints dropout_ {nullptr};
};

} // namespace attnlab
