#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// The gradient's L2 norm in total and per layer, as a training run records it at its log steps (TrainConfig::
// gradientNorms): the curve that shows a gradient vanishing or exploding, layer by layer. A layer is the
// parameter's top-level module ("embedding", "positions", "output"), the numbered modules of one layer together
// ("attention0", "attention_norm0", "ffn_in0" -> "layer0"; "block3" -> "layer3"; "encoder_attention1" ->
// "encoder_layer1", "cross_attention1" -> "decoder_layer1"); a LibTorch RNN's stacked layers are told apart by the
// "_l<N>" of their weights ("encoder.l0", "encoder.l1").
class GradientNorms {
public:
    explicit GradientNorms(const torch::nn::Module& model); // its trainable parameters, grouped once

    static std::string layerOf(const std::string& parameterName);
    const std::vector<std::string>& layers() const { return layers_; }

    // Of the gradients as they are now (call after backward, before clipping): {"grad_norm", ||g||} first, then
    // {"grad_norm.<layer>", ||g_layer||} in the model's order; ||g||^2 = sum over layers of ||g_layer||^2.
    // Parameters without a gradient count as zero. One read from the device.
    std::vector<std::pair<std::string, double>> measure() const;

private:
    std::vector<std::string> layers_;
    std::vector<std::vector<torch::Tensor>> parameters_; // by layer
};

} // namespace attnlab
