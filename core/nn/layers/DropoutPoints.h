#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/DropoutMask.h"

#include <torch/torch.h>

namespace attnlab {

// The three places a model may drop units (ModelConfig::dropoutPoints): the input embeddings, each
// layer's output, and the sentence vector before the softmax layer, each with its own keep probability.
// A switched-off point returns its input untouched, so it costs nothing.
class DropoutPointsImpl : public torch::nn::Module {
public:
    explicit DropoutPointsImpl(const ModelConfig& config);
    torch::Tensor input(const torch::Tensor& x) { return apply(x, input_); }
    torch::Tensor hidden(const torch::Tensor& x) { return apply(x, hidden_); }
    torch::Tensor output(const torch::Tensor& x) { return apply(x, output_); }
    std::string describe() const; // "input 0.8, hidden 0.8" (keep probabilities), or "none"

private:
    torch::Tensor apply(const torch::Tensor& x, double drop) { return DropoutMask::apply(x, drop, is_training()); }
    double input_, hidden_, output_; // drop probabilities
};
TORCH_MODULE(DropoutPoints);

} // namespace attnlab
