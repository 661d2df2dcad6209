#include "core/nn/training/RegressionTask.h"

#include "core/nn/layers/TensorConversions.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>

namespace attnlab {

RegressionTask::Split RegressionTask::toTensors(const std::vector<SeriesWindow>& windows, int window, int drivers,
                                                int horizon, const torch::Device& device)
{
    const auto n = static_cast<int64_t>(windows.size());
    auto x = torch::empty({n, window, drivers}), h = torch::empty({n, window}), y = torch::empty({n, horizon});
    auto xa = x.accessor<float, 3>();
    auto ha = h.accessor<float, 2>();
    auto ya = y.accessor<float, 2>();
    for (int64_t i = 0; i < n; ++i) {
        const auto& w = windows[static_cast<std::size_t>(i)];
        TORCH_CHECK(w.drivers.size() == static_cast<std::size_t>(window) * drivers && w.targetHistory.size() == static_cast<std::size_t>(window),
                    "series window ", i, " does not have ", window, " x ", drivers, " values");
        for (int t = 0; t < window; ++t) {
            for (int f = 0; f < drivers; ++f)
                xa[i][t][f] = w.drivers[static_cast<std::size_t>(t) * drivers + f];
            ha[i][t] = w.targetHistory[static_cast<std::size_t>(t)];
        }
        // A window built by hand may hold its one target only; one from SeriesWindowBuilder holds all H.
        TORCH_CHECK(w.ahead.empty() ? horizon == 1 : w.ahead.size() == static_cast<std::size_t>(horizon),
                    "series window ", i, " does not have ", horizon, " targets");
        for (int s = 0; s < horizon; ++s)
            ya[i][s] = w.ahead.empty() ? w.target : w.ahead[static_cast<std::size_t>(s)];
    }
    return {x.to(device), h.to(device), y.to(device)};
}

RegressionTask::RegressionTask(std::shared_ptr<SeriesRegressor> model, const SeriesDataset& dataset, const torch::Device& device,
                               const std::string& sampling)
    : model_(std::move(model)), dataset_(dataset),
      train_(toTensors(dataset.train, dataset.window, dataset.drivers(), dataset.horizon, device)),
      dev_(toTensors(dataset.dev, dataset.window, dataset.drivers(), dataset.horizon, device)),
      test_(toTensors(dataset.test, dataset.window, dataset.drivers(), dataset.horizon, device)), epochs_(sampling == "epochs")
{
    if (model_->fitsInClosedForm()) // the linear AR and ARIMA baselines: least squares on the training windows, once
        model_->fit(train_, dev_);
}

std::vector<std::string> RegressionTask::notes() const
{
    const std::string note = model_->fitNote();
    return note.empty() ? std::vector<std::string>{} : std::vector<std::string>{note};
}

std::vector<int64_t> RegressionTask::drawWindows(std::mt19937_64& rng, int batchSize)
{
    const int64_t n = train_.target.size(0);
    std::vector<int64_t> picks(static_cast<std::size_t>(std::min<int64_t>(batchSize, n)));
    if (epochs_) {
        // Shuffled epochs: every window once per epoch, the order drawn from the run's seed.
        for (auto& p : picks) {
            if (cursor_ == order_.size()) {
                order_.resize(static_cast<std::size_t>(n));
                std::iota(order_.begin(), order_.end(), 0);
                std::shuffle(order_.begin(), order_.end(), rng);
                cursor_ = 0;
            }
            p = order_[cursor_++];
        }
    } else {
        // Random batch sampling, as the thesis and DA-RNN do: batchSize windows drawn uniformly.
        std::uniform_int_distribution<int64_t> pick(0, n - 1);
        for (auto& p : picks)
            p = pick(rng);
    }
    return picks;
}

TrainingTask::Step RegressionTask::trainStep(std::mt19937_64& rng, int batchSize)
{
    const auto picks = drawWindows(rng, batchSize);
    const auto index = hostToDevice(torch::tensor(picks, torch::kLong), train_.target.device(), torch::kLong);
    auto predicted = model_->forward(train_.drivers.index_select(0, index), train_.history.index_select(0, index));
    Step step;
    step.loss = torch::mse_loss(predicted, train_.target.index_select(0, index));
    step.count = static_cast<int64_t>(picks.size());
    return step;
}

std::vector<std::pair<std::string, double>> RegressionTask::errors(const torch::Tensor& predicted, const torch::Tensor& target)
{
    auto difference = (predicted - target).to(torch::kDouble);
    const double mae = difference.abs().mean().item<double>();
    const double rmse = std::sqrt(difference.pow(2).mean().item<double>());
    const double mape = (difference / target.to(torch::kDouble)).abs().mean().item<double>() * 100.0;
    return {{"mae", mae}, {"rmse", rmse}, {"mape", mape}};
}

TrainingTask::Evaluation RegressionTask::evaluate(bool test)
{
    torch::NoGradGuard noGrad;
    model_->eval();
    const Split& split = test ? test_ : dev_;
    std::vector<torch::Tensor> parts, attention;
    const int64_t n = split.target.size(0);
    model_->setRecordAttention(test); // the forecast keeps each test prediction's attention over its window
    for (int64_t begin = 0; begin < n; begin += 512) {
        parts.push_back(model_->forward(split.drivers.slice(0, begin, begin + 512), split.history.slice(0, begin, begin + 512)));
        const auto temporal = model_->recordedTemporalAttention();
        if (test && temporal.defined() && temporal.dim() == 2 && temporal.size(1) == dataset_.window)
            attention.push_back(temporal.detach());
    }
    model_->setRecordAttention(false);
    auto predicted = torch::cat(parts);
    Evaluation e;
    if (test) // the first step ahead of each window: one prediction a row
        e.forecast = forecastOf(predicted.select(1, 0), split.target.select(1, 0),
                                attention.size() == parts.size() ? torch::cat(attention) : torch::Tensor());
    e.metrics.push_back({"loss", torch::mse_loss(predicted, split.target).item<double>()});
    // Back to the target's units before measuring errors (thesis 6.3).
    auto unscale = [&](const torch::Tensor& scaled) {
        return scaled.to(torch::kDouble) / dataset_.scaleTop * (dataset_.targetMax - dataset_.targetMin) + dataset_.targetMin;
    };
    for (const auto& metric : errors(unscale(predicted), unscale(split.target))) // over every step ahead
        e.metrics.push_back(metric);
    e.score = -e.metrics[2].second; // lowest RMSE is best
    if (dataset_.horizon > 1) // and per step ahead: "rmse.3" is the error three steps ahead
        for (int h = 0; h < dataset_.horizon; ++h)
            for (const auto& [name, value] : errors(unscale(predicted.select(1, h)), unscale(split.target.select(1, h))))
                e.metrics.push_back({name + "." + std::to_string(h + 1), value});
    return e;
}

SeriesForecast RegressionTask::forecastOf(const torch::Tensor& predicted, const torch::Tensor& target,
                                          const torch::Tensor& attention) const
{
    SeriesForecast f;
    f.target = dataset_.targetName;
    f.window = dataset_.window;
    f.firstRow = dataset_.firstTestRow;
    const auto p = predicted.to(torch::kCPU, torch::kDouble).contiguous(), y = target.to(torch::kCPU, torch::kDouble).contiguous();
    for (int64_t i = 0; i < p.size(0); ++i) {
        f.predicted.push_back(dataset_.denormalise(p[i].item<double>()));
        f.actual.push_back(dataset_.denormalise(y[i].item<double>()));
    }
    if (attention.defined()) {
        f.attentionName = "temporal attention";
        const auto a = attention.to(torch::kCPU, torch::kFloat).contiguous();
        for (int64_t i = 0; i < a.size(0); ++i)
            f.attention.push_back(hostFloats(a[i]));
    }
    return f;
}

std::vector<AttentionSnapshot> RegressionTask::attention(int step)
{
    if (dev_.target.size(0) == 0)
        return {};
    torch::NoGradGuard noGrad;
    model_->eval();
    model_->setRecordAttention(true);
    model_->forward(dev_.drivers.slice(0, 0, 1), dev_.history.slice(0, 0, 1));
    auto layers = model_->recordedAttention();
    auto temporal = model_->recordedTemporalAttention();
    auto input = model_->recordedInputAttention();
    model_->setRecordAttention(false);
    AttentionSnapshot snapshot;
    snapshot.step = step;
    snapshot.series = true;
    snapshot.trueDriver = dataset_.trueDriver;
    snapshot.trueLag = dataset_.trueLag;
    for (int t = 0; t < dataset_.window; ++t)
        snapshot.tokens.push_back("t-" + std::to_string(dataset_.window - 1 - t));
    if (temporal.defined() && temporal.size(1) == dataset_.window) {
        snapshot.pooling = hostFloats(temporal[0]);
        snapshot.poolingName = "temporal attention";
    }
    if (input.defined()) {
        snapshot.features = dataset_.driverNames;
        snapshot.inputAttention = hostFloats(input[0]);
    }
    for (std::size_t l = 0; l < layers.size(); ++l) {
        for (int64_t h = 0; h < layers[l].size(1); ++h) {
            const auto w = layers[l][0][h];
            snapshot.maps.push_back({static_cast<int>(l), static_cast<int>(h), static_cast<int>(w.size(0)), hostFloats(w)});
        }
    }
    if (snapshot.empty())
        return {};
    snapshot.probeLabel = "first dev window";
    return {snapshot};
}

std::string RegressionTask::checkpointMetadata() const
{
    return nlohmann::json{{"task", "series"},
                          {"drivers", dataset_.driverNames},
                          {"target", dataset_.targetName},
                          {"window", dataset_.window},
                          {"horizon", dataset_.horizon},
                          {"target_min", dataset_.targetMin},
                          {"target_max", dataset_.targetMax},
                          {"scale_top", dataset_.scaleTop},
                          {"driver_min", dataset_.driverMin},
                          {"driver_max", dataset_.driverMax}}
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
