#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <vector>

namespace attnlab {

// What LstmLayer and GruLayer share: one direction of one layer on the CPU over a batch sorted longest first,
// time-major, so each step's rows are a prefix of the batch (batchSizes[t] rows are longer than t).
struct RecurrentWeights {
    torch::Tensor ih, hh, biasIh, biasHh; // [G*H, I], [G*H, H], [G*H], [G*H]; G gates (LSTM 4, GRU 3)
};

class RecurrentSteps {
public:
    torch::Tensor states; // [T, B, H] time-major, zeros past each row's length
    torch::Tensor final;  // [B, H]: the state after each row's last step in this direction

    // The final state out of the per-step states: the step at each row's own end (forward), or step 0
    // (reverse, where every row ends); and the same step's share of a gradient, added into dStates.
    static torch::Tensor finalOf(const torch::Tensor& states, const std::vector<int64_t>& batchSizes, bool reverse);
    static void addFinalGradient(torch::Tensor& dStates, const torch::Tensor& dFinal, const std::vector<int64_t>& batchSizes,
                                 bool reverse);
    static void check(const torch::Tensor& x, const std::vector<int64_t>& batchSizes, const char* layer);

    // The gradients of x [T, B, I], W_ih and W_hh as one GEMM each over all steps, from the gradients of the
    // gates' input terms (W_i* x + b_i*) and recurrent terms (W_h* h + b_h*), [T, B, G*H] each (the same
    // tensor for the LSTM). The recurrent one pairs step t with h of the step before it (the first's is zero).
    struct WeightGradients {
        torch::Tensor input, ih, hh;
    };
    static WeightGradients gradientsOf(const torch::Tensor& dInputTerms, const torch::Tensor& dRecurrentTerms,
                                       const torch::Tensor& x, const torch::Tensor& states, const torch::Tensor& wIh,
                                       bool reverse, bool inputNeedsGradient);
};

} // namespace attnlab
