#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace attnlab {

// torch::optim::Adam's update on the CPU in one pass over each parameter (AdamUpdate), split over LibTorch's
// threads: the optimiser the trainer uses for adam on the CPU. Its state is LibTorch's: a step count per
// parameter (a parameter's steps are the steps it had a gradient in) and the two moments, made at its first step.
// Within a few float ulps of torch::optim::Adam, not equal: LibTorch's vectorised add fuses the multiply and add
// that its scalar tail and this pass round twice (test_training_step).
class FusedCpuAdam {
public:
    FusedCpuAdam(std::vector<torch::Tensor> parameters, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8);
    // Whether it takes these parameters: dense float32 or float64 on the CPU, contiguous. Else torch::optim::Adam.
    static bool suits(const std::vector<torch::Tensor>& parameters);
    void step(double learningRate);
    // The most steps any parameter took.
    std::int64_t steps() const;

private:
    std::vector<torch::Tensor> parameters_, firstMoment_, secondMoment_;
    std::vector<std::int64_t> stepOf_;
    double beta1_, beta2_, eps_;
};

} // namespace attnlab
