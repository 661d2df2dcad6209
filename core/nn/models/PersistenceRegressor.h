#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/nn/models/SeriesRegressor.h"

namespace attnlab {

// The persistence forecast, every time-series model's first baseline: the next value is the last one seen,
// y_T = y_{T-1} (and every step ahead the same). Nothing to learn, no parameters; a model that does not beat it
// has learned nothing about time.
class PersistenceRegressor : public SeriesRegressor {
public:
    explicit PersistenceRegressor(int horizon = 1) : horizon_(horizon) {}
    torch::Tensor forward(const torch::Tensor& drivers, const torch::Tensor& history) override;
    std::string summary() const override;

private:
    int horizon_;
};

} // namespace attnlab
