#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/layers/RecurrentSteps.h"

namespace attnlab {

// One direction of one GRU layer on the CPU with its backward pass written out, as LstmLayer for the LSTM
// does: one small GEMM a step each way, the input projection and both weight gradients one GEMM each.
// Same parameters and gate order (r, z, n) as torch::nn::GRU:
//   r = σ(W_ir x_t + b_ir + W_hr h_{t-1} + b_hr)   z = σ(W_iz x_t + b_iz + W_hz h_{t-1} + b_hz)
//   n = tanh(W_in x_t + b_in + r ⊙ (W_hn h_{t-1} + b_hn))   h_t = (1 - z) ⊙ n + z ⊙ h_{t-1}
class GruLayer {
public:
    // x: [T, B, I] time-major, rows sorted longest first; batchSizes[t]: how many rows are longer than t.
    // weights: [3H, I], [3H, H], [3H], [3H].
    static RecurrentSteps run(const torch::Tensor& x, const std::vector<int64_t>& batchSizes, const RecurrentWeights& weights,
                              bool reverse);
};

} // namespace attnlab
