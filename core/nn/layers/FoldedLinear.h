#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

namespace attnlab {

// x W^T + b of a torch::nn::Linear for an input of any rank [..., d_in] as at::linear computes it: a contiguous
// [B, T, d_in] folded into one [B*T, d_in] GEMM with the bias added inside it (addmm), and one backward node.
// The C++ module's own forward multiplies then adds the bias in a second pass over the output (and its gradient).
class FoldedLinear {
public:
    static torch::Tensor apply(const torch::nn::Linear& layer, const torch::Tensor& x);
};

} // namespace attnlab
