#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/DropoutPoints.h"
#include "core/nn/models/SequenceClassifier.h"

#include <vector>

namespace attnlab {

// The thesis' CNN baseline (section 5.1.4, Barnes et al. 2017): every sentence padded in front with zero vectors
// (or cut to its last words) to a fixed n tokens, the n x R matrix M convolved with `filters` maps of each width
// 2, 3 and 4 (ReLU), each map max-pooled over windows of 2, flattened and concatenated, then a ReLU layer of
// ff_hidden and the softmax layer; dropout on the embeddings and after the convolutions. The flattened width,
// and so the parameter count, depends on n: 3 x 300 x 9 + 9 convolution weights at R = 300, then
// 3 (28 + 27 + 27) = 246 features at n = 57, 300 hidden and 5 classes is the thesis' 83,714 (Table 5.4).
class CnnClassifier : public SequenceClassifier {
public:
    explicit CnnClassifier(const ModelConfig& config);
    torch::Tensor embed(const torch::Tensor& ids) override;
    torch::Tensor forwardEmbedded(const torch::Tensor& embedded, const torch::Tensor& mask) override;
    std::string summary() const override;
    bool capturable() const override { return true; } // a gather by the mask's lengths, on the device

    static constexpr int kWidths[3] = {2, 3, 4};
    static constexpr int kPool = 2;
    // The features after pooling at n tokens and F maps: F x sum over widths of floor((n - w + 1) / 2).
    static int pooledFeatures(int length, int filters);

private:
    ModelConfig config_;
    int length_; // n
    torch::nn::Embedding embedding_{nullptr};
    std::vector<torch::nn::Conv1d> convolutions_;
    torch::nn::Linear hidden_{nullptr}, output_{nullptr};
    DropoutPoints dropout_{nullptr};
};

} // namespace attnlab
