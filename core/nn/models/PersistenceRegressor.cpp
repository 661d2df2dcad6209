#include "core/nn/models/PersistenceRegressor.h"

namespace attnlab {

torch::Tensor PersistenceRegressor::forward(const torch::Tensor& /*drivers*/, const torch::Tensor& history)
{
    // history [B, T]: its last step (the unknown y_T) already holds y_{T-1} (thesis 6.3), so it is the forecast.
    return history.select(1, history.size(1) - 1).unsqueeze(1).expand({history.size(0), horizon_}).contiguous(); // [B, H]
}

std::string PersistenceRegressor::summary() const { return "persistence: the last value seen, y_T = y_{T-1} (no parameters)"; }

} // namespace attnlab
