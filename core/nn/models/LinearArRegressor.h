#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/models/SeriesRegressor.h"

namespace attnlab {

// Linear autoregression on the window's past target values, the classic baseline (Box & Jenkins' AR(p) with
// p = T - 1): y_T = c + sum_{k=1}^{p} a_k y_{T-k}, fitted once by least squares over every training window; with a
// horizon H, one such regression per step ahead (y_{T+h} on the same lags: the direct strategy),
// (LAPACK's gelsd through torch::linalg_lstsq, in double precision on the CPU). The coefficients are buffers: saved
// with the checkpoint, never trained.
class LinearArRegressor : public SeriesRegressor {
public:
    explicit LinearArRegressor(int window, int horizon = 1);
    torch::Tensor forward(const torch::Tensor& drivers, const torch::Tensor& history) override;
    std::string summary() const override;
    bool fitsInClosedForm() const override { return true; }
    void fit(const Windows& train, const Windows& dev) override;
    // [p + 1] (H = 1) or [p + 1, H]: a_p .. a_1 in the history's order (oldest first), then the intercept c.
    const torch::Tensor& coefficients() const { return coefficients_; }

private:
    int lags_, horizon_;
    torch::Tensor coefficients_;
};

} // namespace attnlab
