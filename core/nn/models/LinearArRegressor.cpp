#include "core/nn/models/LinearArRegressor.h"

#include <stdexcept>

namespace attnlab {

LinearArRegressor::LinearArRegressor(int window, int horizon) : lags_(window - 1), horizon_(horizon)
{
    if (window < 2)
        throw std::invalid_argument("window: a linear autoregression needs at least one past value (window >= 2)");
    // One step ahead keeps the shape of the checkpoints made before horizons.
    coefficients_ = register_buffer("coefficients", horizon == 1 ? torch::zeros({lags_ + 1}) : torch::zeros({lags_ + 1, horizon}));
}

void LinearArRegressor::fit(const Windows& train, const Windows& /*dev*/)
{
    const auto& history = train.history;
    const auto& target = train.target;
    torch::NoGradGuard noGrad;
    // X [N, p + 1] = the p known past values of each window and a column of ones; y [N].
    const auto past = history.narrow(1, 0, lags_).to(torch::kCPU, torch::kDouble);
    const auto design = torch::cat({past, torch::ones({past.size(0), 1}, past.options())}, 1);
    const auto y = target.to(torch::kCPU, torch::kDouble).reshape({target.size(0), -1}); // [N, H]
    // Minimum-norm least squares (SVD): a rank-deficient design (a constant series) still has an answer.
    const auto solution = std::get<0>(torch::linalg_lstsq(design, y, c10::nullopt, std::string("gelsd")));
    coefficients_.copy_(solution.reshape(coefficients_.sizes()).to(coefficients_.options()));
}

torch::Tensor LinearArRegressor::forward(const torch::Tensor& /*drivers*/, const torch::Tensor& history)
{
    const auto past = history.narrow(1, 0, lags_);                  // [B, p]
    const auto a = coefficients_.reshape({lags_ + 1, horizon_});   // [p + 1, H]
    return torch::mm(past, a.narrow(0, 0, lags_)) + a[lags_];        // [B, H]
}

std::string LinearArRegressor::summary() const
{
    return "linear autoregression AR(" + std::to_string(lags_) + ") on the target's past values, least squares (no gradient steps)";
}

} // namespace attnlab
