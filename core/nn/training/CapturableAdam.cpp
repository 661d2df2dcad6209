#include "core/nn/training/CapturableAdam.h"

#include "core/nn/TorchCompat.h"

#include <stdexcept>

namespace attnlab {

CapturableAdam::CapturableAdam(std::vector<torch::Tensor> parameters, double learningRate, double beta1, double beta2,
                               double eps, Kernel kernel)
    : parameters_(std::move(parameters)), kernel_(kernel), beta1_(beta1), beta2_(beta2), eps_(eps)
{
    if (kernel_ == Kernel::Fused && !fusedAvailable())
        throw std::invalid_argument("CapturableAdam: this LibTorch has no fused Adam with a tensor learning rate");
    const auto device = parameters_.empty() ? torch::Device(torch::kCPU) : parameters_.front().device();
    const auto scalar = torch::TensorOptions().dtype(kernel_ == Kernel::Fused ? torch::kFloat : torch::kDouble).device(device);
    step_ = torch::zeros({}, scalar);
    learningRate_ = torch::full({}, learningRate, scalar);
    for (const auto& p : parameters_) {
        firstMoment_.push_back(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        secondMoment_.push_back(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        if (kernel_ == Kernel::Fused)
            stepOf_.push_back(torch::zeros({}, scalar));
    }
}

bool CapturableAdam::fusedAvailable()
{
    return torch_compat::hasFusedAdamWithTensorRate();
}

void CapturableAdam::setLearningRate(double rate)
{
    learningRate_.fill_(rate);
}

std::int64_t CapturableAdam::steps() const
{
    if (kernel_ == Kernel::Fused) // a parameter that never had a gradient took no step: the most any took
        return stepOf_.empty() ? 0 : static_cast<std::int64_t>(torch::stack(stepOf_).max().item<double>());
    return static_cast<std::int64_t>(step_.item<double>());
}

void CapturableAdam::step()
{
    if (kernel_ == Kernel::Fused)
        stepFused();
    else
        stepPerParameter();
}

CapturableAdam::Updated CapturableAdam::withGradients() const
{
    // Only the parameters that have a gradient (as torch::optim::Adam skips the others). Which ones do is fixed
    // after the first backward pass, so a captured step sees the same list at every replay.
    Updated u;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        if (!parameters_[i].grad().defined())
            continue;
        u.params.push_back(parameters_[i]);
        u.grads.push_back(parameters_[i].grad());
        u.m.push_back(firstMoment_[i]);
        u.v.push_back(secondMoment_[i]);
        if (!stepOf_.empty())
            u.t.push_back(stepOf_[i]);
    }
    return u;
}

void CapturableAdam::stepFused()
{
    torch::NoGradGuard noGrad;
    auto u = withGradients();
    if (u.params.empty())
        return;
    torch::_foreach_add_(u.t, 1.0); // t counts the steps each parameter took, as PyTorch's state["step"]
    // The same update as stepPerParameter, in one kernel, with the bias corrections from t in float32.
    torch_compat::fusedAdamStep(u.params, u.grads, u.m, u.v, u.t, learningRate_, beta1_, beta2_, eps_);
}

void CapturableAdam::stepPerParameter()
{
    torch::NoGradGuard noGrad;
    auto [params, grads, m, v, t] = withGradients();
    if (params.empty())
        return;
    step_.add_(1.0);
    // m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2: host constants, the same at every step.
    torch::_foreach_mul_(m, beta1_);
    torch::_foreach_add_(m, grads, 1.0 - beta1_);
    torch::_foreach_mul_(v, beta2_);
    torch::_foreach_addcmul_(v, grads, grads, 1.0 - beta2_);
    // The bias corrections from t on the device, in float64 (0-d: they do not change the parameters' dtype).
    const auto biasCorrection1 = 1.0 - torch::pow(beta1_, step_);
    const auto biasCorrection2Sqrt = (1.0 - torch::pow(beta2_, step_)).sqrt();
    const auto stepSize = learningRate_ / biasCorrection1;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const auto denominator = (v[i].sqrt() / biasCorrection2Sqrt).add_(eps_);
        params[i].sub_(m[i] / denominator * stepSize);
    }
}

} // namespace attnlab
