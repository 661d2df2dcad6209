#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <string>

namespace attnlab {

// The activations a model may use by name: relu (SSAN), swish (ESSAN, x * sigmoid(x)), gelu
// (Transformer variants), none (linear projections).
class Activation {
public:
    static torch::Tensor apply(const std::string& name, const torch::Tensor& x);
    static bool isKnown(const std::string& name);
};

} // namespace attnlab
