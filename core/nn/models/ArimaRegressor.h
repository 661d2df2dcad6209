#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/models/SeriesRegressor.h"

#include <vector>

namespace attnlab {

// ARIMA(p, d, q) on the window's past target values (Box & Jenkins), the thesis' Table 6.4 baseline. The series is
// differenced d times; its mean mu is taken out (a drift when d = 1), and w_t = z_t - mu follows the ARMA
//   w_t = sum_{i=1}^{p} phi_i w_{t-i} + e_t + sum_{k=1}^{q} theta_k e_{t-k}.
// Estimated once on the training series by Hannan & Rissanen's two regressions (a long autoregression by
// Yule-Walker gives residuals; then w_t on its lags and the residuals' lags by least squares), exactly as statsmodels'
// hannan_rissanen(demean=True, unbiased=False). Each window is then forecast from its own T - 1 known values, as every
// model sees only its window: the residuals are rebuilt over the window starting from zero (conditional sum of
// squares), and the forecast is undifferenced. The orders are chosen on dev: every p <= 3, d <= 1, q <= 2 that fits
// the window, the lowest dev RMSE. Several steps ahead (a horizon H), the forecast is iterated: each predicted value
// joins the past with a zero residual. Written by hand because Debian packages no C++ ARIMA (statsmodels is Python); held
// to statsmodels on a committed fixture (tests/core/fixtures/series/).
class ArimaRegressor : public SeriesRegressor {
public:
    static constexpr int kMaxP = 3, kMaxD = 1, kMaxQ = 2;
    struct Order {
        int p = 0, d = 0, q = 0;
    };
    struct Estimate {
        std::vector<double> ar, ma; // phi_1..phi_p, theta_1..theta_q
        double mean = 0.0;          // mu of the differenced series
        double sigma2 = 0.0;        // the residuals' variance (the last regression's)
    };

    explicit ArimaRegressor(int window, int horizon = 1);
    torch::Tensor forward(const torch::Tensor& drivers, const torch::Tensor& history) override;
    std::string summary() const override;
    bool fitsInClosedForm() const override { return true; }
    void fit(const Windows& train, const Windows& dev) override;
    std::string fitNote() const override { return note_; }

    // Hannan-Rissanen on a series already differenced; throws std::invalid_argument when it is too short for the
    // orders (the long autoregression needs max(floor(ln(n)^2), 2 max(p, q)) lags and more values than that).
    static Estimate hannanRissanen(const std::vector<double>& series, int p, int q);
    // The model forecasts with these orders and estimates from now on.
    void set(Order order, const Estimate& estimate);
    Order order() const;
    // Whether the window's T - 1 known values leave the p lags after differencing d times.
    bool fits(Order order) const { return order.p <= window_ - 1 - order.d; }

private:
    int window_, horizon_;
    torch::Tensor orders_, ar_, ma_, mean_; // buffers, kept with the checkpoint: [3] p d q, [kMaxP], [kMaxQ], [1]
    std::string note_;
};

} // namespace attnlab
