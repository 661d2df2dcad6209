#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/layers/RecurrentSteps.h"

namespace attnlab {

// One direction of one LSTM layer on the CPU over a batch of different lengths, with its backward pass
// written out. LibTorch's packed LSTM runs every step as its own autograd nodes: two small GEMMs
// forward and four backward a step, and a full-size zero-filled gradient of the packed input for every
// step's slice. Here a step costs one small GEMM each way; the input projection and both weight gradients
// are one large GEMM each over all steps. Same parameters and gate order (i, f, g, o) as torch::nn::LSTM:
//   i = σ(W_ii x_t + b_ii + W_hi h_{t-1} + b_hi)   f = σ(W_if x_t + ... )   g = tanh(W_ig x_t + ... )
//   o = σ(W_io x_t + ... )   c_t = f ⊙ c_{t-1} + i ⊙ g   h_t = o ⊙ tanh(c_t)
class LstmLayer {
public:
    // x: [T, B, I] time-major, rows sorted longest first; batchSizes[t]: how many rows are longer than t
    // (non-increasing, every row at least one step). reverse: read each row from its own last step back.
    // weights: [4H, I], [4H, H], [4H], [4H].
    static RecurrentSteps run(const torch::Tensor& x, const std::vector<int64_t>& batchSizes, const RecurrentWeights& weights,
                              bool reverse);
};

} // namespace attnlab
