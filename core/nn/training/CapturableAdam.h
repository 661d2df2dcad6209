#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <vector>

namespace attnlab {

// Adam (Kingma & Ba 2015) as LibTorch's torch::optim::Adam updates, with everything a step reads on the
// parameters' device: the step count t and the learning rate are 0-d tensors there, so a step makes no host
// read and no allocation that depends on t, and can be captured in a CUDA graph and replayed (PyTorch's
// Adam(capturable=True)). Per parameter p with gradient g:
//   m = b1 m + (1 - b1) g            v = b2 v + (1 - b2) g^2           (foreach: one call for all parameters)
//   p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
// Written here because LibTorch's C++ Adam keeps t as a host integer and takes lr and the bias corrections as
// host scalars, which a captured graph would freeze at the values of the step it was captured on.
// Two kernels compute it: LibTorch 2.x's fused multi-tensor Adam (_fused_adam_ with the rate as a device tensor:
// one launch for every parameter, which in a launch-bound graph is what counts) and, where that does not exist
// (Debian's 1.13), the foreach moments and one update per parameter below, with t and lr in float64.
class CapturableAdam {
public:
    enum class Kernel { Fused, PerParameter };
    CapturableAdam(std::vector<torch::Tensor> parameters, double learningRate, double beta1 = 0.9, double beta2 = 0.999,
                   double eps = 1e-8, Kernel kernel = fusedAvailable() ? Kernel::Fused : Kernel::PerParameter);
    // Whether this LibTorch has the fused kernel with a device-tensor rate (2.x).
    static bool fusedAvailable();
    // Outside a captured step: writes the rate into the device tensor the step reads.
    void setLearningRate(double rate);
    void step();
    // The step count, read back (a host wait on a GPU: for tests and checkpoints, never inside a step).
    std::int64_t steps() const;

private:
    // The parameters that have a gradient, with their gradients, moments and (fused) step counts.
    struct Updated {
        std::vector<torch::Tensor> params, grads, m, v, t;
    };
    Updated withGradients() const;
    void stepPerParameter();
    void stepFused();

    std::vector<torch::Tensor> parameters_, firstMoment_, secondMoment_;
    Kernel kernel_;
    torch::Tensor step_, learningRate_; // 0-d on the parameters' device: float64, float32 for the fused kernel
    std::vector<torch::Tensor> stepOf_; // the fused kernel's t, one float32 0-d tensor per parameter (as PyTorch's)
    double beta1_, beta2_, eps_;
};

} // namespace attnlab
