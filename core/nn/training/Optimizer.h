#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/TrainConfig.h"
#include "core/nn/training/AdadeltaOptimizer.h"
#include "core/nn/training/CapturableAdam.h"
#include "core/nn/training/FusedCpuAdam.h"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace attnlab {

// The optimiser a TrainConfig names (adam | adadelta | sgd with momentum), stepped with the scheduled
// learning rate, with decoupled weight decay (Loshchilov & Hutter: w <- w - lr * decay * w before the
// update, so adam + weight_decay is AdamW). L2 as a loss term (thesis eq. 4.1) is l2Penalty().
class Optimizer {
public:
    Optimizer(const TrainConfig& config, std::vector<torch::Tensor> parameters);
    void step(double learningRate);
    // A step that can be captured in a CUDA graph: Adam with TrainConfig::capturableStep and no weight decay
    // (its factor is a host number). The rate is set before the captured part, which then calls stepAtSetRate().
    bool capturable() const { return capturableAdam_ && weightDecay_ == 0.0; }
    void setLearningRate(double learningRate);
    void stepAtSetRate();
    // Thesis eq. 4.1's penalty without gamma: (1/n) sum of w_i^2 over the n weights of every weight
    // matrix/tensor (dim >= 2; biases and LayerNorm gains are not "weights").
    static torch::Tensor l2Penalty(const std::vector<torch::Tensor>& parameters);
    // Scales all gradients so that their global L2 norm is at most maxNorm; returns the norm before, as a
    // scalar on the gradients' device. Computed there, never read: LibTorch's clip_grad_norm_ returns a double,
    // which on a GPU waits for the device every step.
    // One foreach call for every parameter's norm and one for the scaling (LibTorch 2.x; 1.13 scales one by one).
    static torch::Tensor clipGradients(const std::vector<torch::Tensor>& parameters, double maxNorm);
    // Zeroes the gradients that exist, in place, in one foreach call: a captured step's kernels are what it costs.
    static void zeroGradients(const std::vector<torch::Tensor>& parameters);

private:
    std::vector<torch::Tensor> parameters_;
    double weightDecay_;
    std::vector<bool> decays_; // per parameter: whether weight decay applies (TrainConfig::weightDecayOn)
    std::unique_ptr<FusedCpuAdam> fusedCpuAdam_;  // adam on the CPU
    std::unique_ptr<torch::optim::Adam> adam_;     // adam elsewhere (a GPU without the capturable step)
    std::unique_ptr<CapturableAdam> capturableAdam_; // adam with TrainConfig::capturableStep
    std::unique_ptr<torch::optim::SGD> sgd_;
    std::unique_ptr<AdadeltaOptimizer> adadelta_;
};

} // namespace attnlab
