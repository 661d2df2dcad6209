#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/layers/RecurrentSteps.h"
#include "core/results/GateValues.h"

#include <string>
#include <vector>

namespace attnlab {

// The gates of LSTM and GRU layers over one sequence, as the views show them: LibTorch's parameter layout and
// equations, one step at a time. Why not from the training path: LstmLayer and GruLayer fuse the steps and
// cuDNN keeps no gates; this reads the same parameters, so its h_t equals the layer's output (tests check).
class RecurrentGates {
public:
    struct Trace {
        int layer = 0;
        bool reverse = false;
        std::vector<std::string> names; // one per row of values
        torch::Tensor values; // [G, T, H]
        torch::Tensor states; // h_t, [T, H]
    };
    // LSTM, the weights' rows in the order i, f, g, o:
    //   i = σ(W_ii x_t + b_ii + W_hi h_{t-1} + b_hi)   f = σ(W_if x_t + ...)   g = tanh(W_ig x_t + ...)   o = σ(W_io
    //   x_t + ...) c_t = f ⊙ c_{t-1} + i ⊙ g    h_t = o ⊙ tanh(c_t)         names: input, forget, candidate, output,
    //   cell
    static Trace lstm(const torch::Tensor& x, const RecurrentWeights& w, bool reverse);
    // GRU, rows r, z, n:
    //   r = σ(W_ir x_t + b_ir + W_hr h_{t-1} + b_hr)   z = σ(W_iz x_t + ...)
    //   n = tanh(W_in x_t + b_in + r ⊙ (W_hn h_{t-1} + b_hn))    h_t = (1 - z) ⊙ n + z ⊙ h_{t-1}
    //                                                            names: reset, update, candidate
    static Trace gru(const torch::Tensor& x, const RecurrentWeights& w, bool reverse);
    // Every layer and direction of a LibTorch LSTM or GRU module over x [T, I], reading its parameters by
    // LibTorch's names (weight_ih_l0, ..._reverse); layer l + 1 reads layer l's states, both directions joined.
    static std::vector<Trace> ofModule(torch::nn::Module& cell, bool isLstm, int layers, bool bidirectional,
                                       const torch::Tensor& x);
    // The traces as the views and the CLI read them.
    static GateValues values(const std::vector<Trace>& traces, const std::string& cell);
};

} // namespace attnlab
