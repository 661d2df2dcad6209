#include "core/nn/training/Optimizer.h"

#include "core/nn/TorchCompat.h"

#include <stdexcept>

namespace attnlab {

Optimizer::Optimizer(const TrainConfig& config, std::vector<torch::Tensor> parameters)
    : parameters_(std::move(parameters)), weightDecay_(config.weightDecay)
{
    for (const auto& p : parameters_) // decoupled decay on every weight, or (nanoGPT's groups) on the matrices only
        decays_.push_back(config.weightDecayOn != "matrices" || p.dim() >= 2);
    if (config.optimizer == "adadelta")
        adadelta_ = std::make_unique<AdadeltaOptimizer>(parameters_, config.learningRate, 0.95, 1e-6);
    else if (config.optimizer == "sgd")
        sgd_ = std::make_unique<torch::optim::SGD>(parameters_, torch::optim::SGDOptions(config.learningRate).momentum(config.momentum));
    else if (config.capturableStep)
        capturableAdam_ = std::make_unique<CapturableAdam>(parameters_, config.learningRate, 0.9, config.adamBeta2);
    else if (FusedCpuAdam::suits(parameters_))
        fusedCpuAdam_ = std::make_unique<FusedCpuAdam>(parameters_, 0.9, config.adamBeta2);
    else
        adam_ = std::make_unique<torch::optim::Adam>(parameters_, torch::optim::AdamOptions(config.learningRate).betas({0.9, config.adamBeta2}));
}

void Optimizer::step(double learningRate)
{
    if (weightDecay_ > 0.0) {
        torch::NoGradGuard noGrad;
        for (std::size_t i = 0; i < parameters_.size(); ++i)
            if (decays_[i] && parameters_[i].grad().defined())
                parameters_[i].mul_(1.0 - learningRate * weightDecay_);
    }
    if (adadelta_) {
        adadelta_->setLearningRate(learningRate);
        adadelta_->step();
    } else if (sgd_) {
        for (auto& group : sgd_->param_groups())
            static_cast<torch::optim::SGDOptions&>(group.options()).lr(learningRate);
        sgd_->step();
    } else if (fusedCpuAdam_) {
        fusedCpuAdam_->step(learningRate);
    } else if (capturableAdam_) {
        capturableAdam_->setLearningRate(learningRate);
        capturableAdam_->step();
    } else {
        for (auto& group : adam_->param_groups())
            static_cast<torch::optim::AdamOptions&>(group.options()).lr(learningRate);
        adam_->step();
    }
}

void Optimizer::setLearningRate(double learningRate)
{
    if (!capturable())
        throw std::logic_error("Optimizer::setLearningRate: only a capturable step's rate lives on the device");
    capturableAdam_->setLearningRate(learningRate);
}

void Optimizer::stepAtSetRate()
{
    if (!capturable())
        throw std::logic_error("Optimizer::stepAtSetRate: not a capturable step");
    capturableAdam_->step();
}

torch::Tensor Optimizer::l2Penalty(const std::vector<torch::Tensor>& parameters)
{
    torch::Tensor sum;
    std::int64_t n = 0;
    for (const auto& p : parameters) {
        if (p.dim() < 2)
            continue;
        auto squares = p.pow(2).sum();
        sum = sum.defined() ? sum + squares : squares;
        n += p.numel();
    }
    return n ? sum / static_cast<double>(n) : torch::zeros({});
}

torch::Tensor Optimizer::clipGradients(const std::vector<torch::Tensor>& parameters, double maxNorm)
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> grads;
    for (const auto& p : parameters)
        if (p.grad().defined())
            grads.push_back(p.grad());
    if (grads.empty())
        return torch::zeros({});
    const auto total = torch::stack(torch::_foreach_norm(grads)).norm(2); // ||g|| over all parameters: sqrt(sum_i ||g_i||^2)
    // g <- g * min(1, maxNorm / (||g|| + 1e-6)), as torch.nn.utils.clip_grad_norm_ scales.
    const auto factor = (maxNorm / (total + 1e-6)).clamp_max(1.0);
    torch_compat::multiplyEachBy(grads, factor);
    return total;
}

void Optimizer::zeroGradients(const std::vector<torch::Tensor>& parameters)
{
    std::vector<torch::Tensor> grads;
    for (const auto& p : parameters)
        if (p.grad().defined())
            grads.push_back(p.grad());
    if (!grads.empty())
        torch::_foreach_zero_(grads);
}

} // namespace attnlab
