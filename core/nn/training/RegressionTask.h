#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/data/SeriesDataset.h"
#include "core/nn/models/SeriesRegressor.h"
#include "core/nn/training/TrainingTask.h"

#include <memory>

namespace attnlab {

// Time-series regression (thesis chapter 6): MSE on the scaled target (eq. 6.5) over random batches of
// windows (over all H steps ahead, with a horizon); MAE, RMSE and MAPE (Table 6.2) on de-normalised values for dev
// and test, over all steps and, with a horizon, per step ahead ("rmse.2"), the best dev step being
// the one with the lowest RMSE; the self-attention of the first dev window at each evaluation; on test, the
// forecast of every window (SeriesForecast).
class RegressionTask : public TrainingTask {
public:
    // sampling: "random" windows per batch (thesis, DA-RNN) or shuffled "epochs" (each window once per epoch).
    RegressionTask(std::shared_ptr<SeriesRegressor> model, const SeriesDataset& dataset, const torch::Device& device,
                   const std::string& sampling = "random");
    torch::nn::Module& module() override { return *model_; }
    std::int64_t trainSize() const override { return train_.target.size(0); }
    Step trainStep(std::mt19937_64& rng, int batchSize) override;
    // The training windows of the next batch (indices into the train split).
    std::vector<int64_t> drawWindows(std::mt19937_64& rng, int batchSize);
    std::string trainMetricName() const override { return ""; }
    Evaluation evaluate(bool test) override;
    std::vector<AttentionSnapshot> attention(int step) override; // the first dev window's
    // {"task":"series","drivers":[...],"target":...,"window":T,"target_min":..,"target_max":..,"scale_top":..,
    //  "driver_min":[...],"driver_max":[...]}: enough to scale a new window and read its prediction.
    std::string checkpointMetadata() const override;
    std::vector<std::string> notes() const override; // what a fitted baseline chose (ARIMA's orders)

    // MAE, RMSE and MAPE (percent) of predictions against targets, both in original units.
    static std::vector<std::pair<std::string, double>> errors(const torch::Tensor& predicted, const torch::Tensor& target);

private:
    using Split = SeriesRegressor::Windows; // [N, T, F], [N, T], [N]
    // predicted, target [N] scaled; attention [N, T] or undefined.
    SeriesForecast forecastOf(const torch::Tensor& predicted, const torch::Tensor& target, const torch::Tensor& attention) const;
    static Split toTensors(const std::vector<SeriesWindow>& windows, int window, int drivers, int horizon, const torch::Device& device);

    std::shared_ptr<SeriesRegressor> model_;
    const SeriesDataset& dataset_;
    Split train_, dev_, test_;
    bool epochs_;
    std::vector<int64_t> order_; // this epoch's shuffled window order
    std::size_t cursor_ = 0;
};

} // namespace attnlab
