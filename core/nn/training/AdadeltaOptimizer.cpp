#include "core/nn/training/AdadeltaOptimizer.h"

namespace attnlab {

AdadeltaOptimizer::AdadeltaOptimizer(std::vector<torch::Tensor> parameters, double learningRate, double rho, double eps)
    : parameters_(std::move(parameters)), learningRate_(learningRate), rho_(rho), eps_(eps)
{
    for (const auto& p : parameters_) {
        squareGrad_.push_back(torch::zeros_like(p));
        squareDelta_.push_back(torch::zeros_like(p));
    }
}

void AdadeltaOptimizer::step()
{
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        auto& p = parameters_[i];
        if (!p.grad().defined())
            continue;
        const auto& g = p.grad();
        squareGrad_[i].mul_(rho_).addcmul_(g, g, 1.0 - rho_);
        auto delta = (squareDelta_[i] + eps_).sqrt_().div_((squareGrad_[i] + eps_).sqrt_()).mul_(g).neg_();
        squareDelta_[i].mul_(rho_).addcmul_(delta, delta, 1.0 - rho_);
        p.add_(delta, learningRate_);
    }
}

void AdadeltaOptimizer::zeroGrad()
{
    for (auto& p : parameters_)
        if (p.grad().defined())
            p.grad().zero_();
}

} // namespace attnlab
