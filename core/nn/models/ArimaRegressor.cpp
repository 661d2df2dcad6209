#include "core/nn/models/ArimaRegressor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace attnlab {
namespace {

torch::TensorOptions doubles() { return torch::TensorOptions().dtype(torch::kDouble); }

// Least squares X b = y (LAPACK's gelsd, the minimum-norm answer, as statsmodels' OLS through pinv).
std::vector<double> leastSquares(const torch::Tensor& x, const torch::Tensor& y)
{
    const auto b = std::get<0>(torch::linalg_lstsq(x, y.unsqueeze(1), c10::nullopt, std::string("gelsd"))).squeeze(1);
    return std::vector<double>(b.data_ptr<double>(), b.data_ptr<double>() + b.numel());
}

// The lag matrix [rows t = from..n-1][k = 1..lags] = x_{t-k}, as statsmodels' lagmat(x, lags)[from - lags:].
torch::Tensor lagged(const torch::Tensor& x, int lags, int from)
{
    const int64_t n = x.size(0);
    if (lags == 0)
        return torch::empty({n - from, 0}, x.options());
    std::vector<torch::Tensor> columns;
    for (int k = 1; k <= lags; ++k)
        columns.push_back(x.slice(0, from - k, n - k));
    return torch::stack(columns, 1);
}

std::string numbers(const std::vector<double>& values)
{
    std::ostringstream out;
    out.precision(3);
    for (std::size_t i = 0; i < values.size(); ++i)
        out << (i ? ", " : "") << values[i];
    return out.str();
}

} // namespace

ArimaRegressor::ArimaRegressor(int window, int horizon) : window_(window), horizon_(horizon)
{
    if (window < 2)
        throw std::invalid_argument("window: ARIMA needs at least one past value (window >= 2)");
    orders_ = register_buffer("orders", torch::zeros({3}, torch::kLong));
    ar_ = register_buffer("ar", torch::zeros({kMaxP}, doubles()));
    ma_ = register_buffer("ma", torch::zeros({kMaxQ}, doubles()));
    mean_ = register_buffer("mean", torch::zeros({1}, doubles()));
}

ArimaRegressor::Estimate ArimaRegressor::hannanRissanen(const std::vector<double>& series, int p, int q)
{
    const int n = static_cast<int>(series.size());
    Estimate e;
    if (n < 2)
        throw std::invalid_argument("ARIMA: a series of " + std::to_string(n) + " values is too short to estimate");
    const auto x = torch::tensor(series, doubles());
    e.mean = x.mean().item<double>();
    const auto w = x - e.mean; // demean=True
    if (p == 0 && q == 0) {
        e.sigma2 = w.pow(2).mean().item<double>();
        return e;
    }
    if (q == 0) { // an autoregression: least squares on the lags
        if (n <= 2 * p)
            throw std::invalid_argument("ARIMA: " + std::to_string(n) + " values are too few for " + std::to_string(p) + " lags");
        const auto design = lagged(w, p, p);
        const auto y = w.slice(0, p);
        e.ar = leastSquares(design, y);
        const auto resid = y - torch::mv(design, torch::tensor(e.ar, doubles()));
        e.sigma2 = resid.pow(2).sum().item<double>() / static_cast<double>(y.size(0) - p);
        return e;
    }
    // Step 1: a long autoregression of order m by Yule-Walker (autocovariances over n, method 'mle'), its residuals.
    const int m = std::max(static_cast<int>(std::floor(std::pow(std::log(static_cast<double>(n)), 2))), 2 * std::max(p, q));
    if (n <= m + q + p + q + 1)
        throw std::invalid_argument("ARIMA: " + std::to_string(n) + " values are too few for orders p " + std::to_string(p) +
                                    ", q " + std::to_string(q) + " (the long autoregression alone takes " +
                                    std::to_string(m) + " lags)");
    const auto centred = w - w.mean(); // yule_walker demeans again
    std::vector<double> r(static_cast<std::size_t>(m + 1));
    for (int k = 0; k <= m; ++k)
        r[static_cast<std::size_t>(k)] = (centred.slice(0, 0, n - k) * centred.slice(0, k)).sum().item<double>() / n;
    auto toeplitz = torch::empty({m, m}, doubles());
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j)
            toeplitz[i][j] = r[static_cast<std::size_t>(std::abs(i - j))];
    const auto rhs = torch::tensor(std::vector<double>(r.begin() + 1, r.end()), doubles());
    torch::Tensor longAr;
    try {
        longAr = torch::linalg_solve(toeplitz, rhs);
    } catch (const c10::Error&) {
        throw std::invalid_argument("ARIMA: the long autoregression's equations are singular (a constant series?)");
    }
    const auto resid = w.slice(0, m) - torch::mv(lagged(w, m, m), longAr); // t = m..n-1
    // Step 2: w_t on its p lags and the residuals' q lags, t = m + q .. n - 1.
    const auto design = torch::cat({lagged(w, p, m + q), lagged(resid, q, q)}, 1);
    const auto y = w.slice(0, m + q);
    const auto b = leastSquares(design, y);
    e.ar.assign(b.begin(), b.begin() + p);
    e.ma.assign(b.begin() + p, b.end());
    const auto fitted = torch::mv(design, torch::tensor(b, doubles()));
    e.sigma2 = (y - fitted).pow(2).sum().item<double>() / static_cast<double>(y.size(0) - p - q);
    return e;
}

void ArimaRegressor::set(Order order, const Estimate& estimate)
{
    torch::NoGradGuard noGrad;
    if (order.p < 0 || order.p > kMaxP || order.d < 0 || order.d > kMaxD || order.q < 0 || order.q > kMaxQ)
        throw std::invalid_argument("ARIMA orders: p 0.." + std::to_string(kMaxP) + ", d 0.." + std::to_string(kMaxD) +
                                    ", q 0.." + std::to_string(kMaxQ));
    if (!fits(order))
        throw std::invalid_argument("ARIMA(" + std::to_string(order.p) + "," + std::to_string(order.d) + "," +
                                    std::to_string(order.q) + ") needs " + std::to_string(order.p + order.d + 1) +
                                    " past values, and a window of " + std::to_string(window_) + " has " +
                                    std::to_string(window_ - 1));
    orders_.copy_(torch::tensor({order.p, order.d, order.q}, torch::kLong));
    ar_.zero_();
    ma_.zero_();
    for (int i = 0; i < order.p; ++i)
        ar_[i] = estimate.ar.at(static_cast<std::size_t>(i));
    for (int k = 0; k < order.q; ++k)
        ma_[k] = estimate.ma.at(static_cast<std::size_t>(k));
    mean_.fill_(estimate.mean);
}

ArimaRegressor::Order ArimaRegressor::order() const
{
    const auto o = orders_.to(torch::kCPU);
    return {static_cast<int>(o[0].item<int64_t>()), static_cast<int>(o[1].item<int64_t>()), static_cast<int>(o[2].item<int64_t>())};
}

torch::Tensor ArimaRegressor::forward(const torch::Tensor& /*drivers*/, const torch::Tensor& history)
{
    const Order o = order();
    const auto ar = ar_.to(torch::kCPU), ma = ma_.to(torch::kCPU);
    const double mu = mean_.to(torch::kCPU).item<double>();
    // history [B, T]: the T - 1 known values (the last step holds a copy of the one before, thesis 6.3).
    const auto known = history.narrow(1, 0, window_ - 1).to(torch::kDouble); // [B, n]
    auto z = known;
    for (int k = 0; k < o.d; ++k)
        z = z.narrow(1, 1, z.size(1) - 1) - z.narrow(1, 0, z.size(1) - 1);
    const auto centred = z - mu; // [B, L]
    const int64_t length = centred.size(1);
    std::vector<torch::Tensor> w, e; // per step, [B]: the window's values, then the forecasts (their residuals 0)
    auto ahead = [&](int64_t j) { // sum_i phi_i w_{j-i} + sum_k theta_k e_{j-k}, zeros before the window
        auto sum = torch::zeros({centred.size(0)}, centred.options());
        for (int i = 1; i <= o.p; ++i)
            sum = sum + ar[i - 1].item<double>() * w[static_cast<std::size_t>(j - i)];
        for (int k = 1; k <= o.q && j - k >= 0; ++k)
            sum = sum + ma[k - 1].item<double>() * e[static_cast<std::size_t>(j - k)];
        return sum;
    };
    for (int64_t j = 0; j < length; ++j) { // residuals from the p-th value on; before it, zero (conditional on them)
        w.push_back(centred.select(1, j));
        e.push_back(j < o.p ? torch::zeros_like(w.back()) : w.back() - ahead(j));
    }
    std::vector<torch::Tensor> steps;
    auto level = known.select(1, known.size(1) - 1); // the last known value, for d = 1
    for (int h = 0; h < horizon_; ++h) {
        w.push_back(ahead(length + h)); // the differenced series' next value, less its mean
        e.push_back(torch::zeros_like(w.back()));
        auto next = w.back() + mu;
        if (o.d == 1)
            next = level = level + next;
        steps.push_back(next);
    }
    return torch::stack(steps, 1).to(history.dtype()); // [B, H]
}

void ArimaRegressor::fit(const Windows& train, const Windows& dev)
{
    torch::NoGradGuard noGrad;
    // The training windows predict the training rows in order: their targets are the training series.
    // (the first step of each: with a horizon, the last H - 1 training rows are only later steps of earlier windows)
    const auto series = train.target.reshape({train.target.size(0), -1}).select(1, 0).to(torch::kCPU, torch::kDouble).contiguous();
    const std::vector<double> values(series.data_ptr<double>(), series.data_ptr<double>() + series.numel());
    const bool onDev = dev.target.defined() && dev.target.size(0) > 0;
    const Windows& judge = onDev ? dev : train;
    const auto target = judge.target.to(torch::kCPU, torch::kDouble).reshape({judge.target.size(0), -1}); // [N, H]
    double best = std::numeric_limits<double>::infinity();
    Order chosen;
    Estimate chosenEstimate;
    int tried = 0;
    std::string skipped;
    for (int d = 0; d <= kMaxD; ++d) {
        std::vector<double> differenced = values;
        for (int k = 0; k < d; ++k) {
            for (std::size_t i = 0; i + 1 < differenced.size(); ++i)
                differenced[i] = differenced[i + 1] - differenced[i];
            if (!differenced.empty())
                differenced.pop_back();
        }
        for (int p = 0; p <= kMaxP; ++p)
            for (int q = 0; q <= kMaxQ; ++q) {
                const Order o{p, d, q};
                if (!fits(o))
                    continue;
                Estimate estimate;
                try {
                    estimate = hannanRissanen(differenced, p, q);
                } catch (const std::exception&) {
                    skipped += (skipped.empty() ? "" : ", ") + std::to_string(p) + "," + std::to_string(d) + "," + std::to_string(q);
                    continue;
                }
                set(o, estimate);
                const auto predicted = forward(judge.drivers, judge.history.to(torch::kCPU)).to(torch::kDouble);
                const double rmse = std::sqrt((predicted - target).pow(2).mean().item<double>());
                ++tried;
                if (std::isfinite(rmse) && rmse < best) {
                    best = rmse;
                    chosen = o;
                    chosenEstimate = estimate;
                }
            }
    }
    if (!std::isfinite(best))
        throw std::invalid_argument("ARIMA: no order could be estimated from " + std::to_string(values.size()) +
                                    " training values (too short a series)");
    set(chosen, chosenEstimate);
    std::ostringstream note;
    note << "ARIMA(" << chosen.p << "," << chosen.d << "," << chosen.q << ") chosen on " << (onDev ? "dev" : "train (no dev split)")
         << " from " << tried << " orders (p <= " << kMaxP << ", d <= " << kMaxD << ", q <= " << kMaxQ
         << "), lowest RMSE; Hannan-Rissanen estimates";
    if (chosen.p)
        note << ", phi " << numbers(chosenEstimate.ar);
    if (chosen.q)
        note << ", theta " << numbers(chosenEstimate.ma);
    if (!skipped.empty())
        note << "; too few values for (" << skipped << ")";
    note_ = note.str();
}

std::string ArimaRegressor::summary() const
{
    const Order o = order();
    return "ARIMA(" + std::to_string(o.p) + "," + std::to_string(o.d) + "," + std::to_string(o.q) +
           ") on the target's past values, Hannan-Rissanen estimates, orders chosen on dev (no gradient steps)";
}

} // namespace attnlab
