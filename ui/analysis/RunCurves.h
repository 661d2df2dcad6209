#pragma once
#include "core/analysis/CurveBand.h"
#include "core/results/RunRecord.h"
#include "ui/analysis/CompareOptions.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <cstdint>
#include <vector>

namespace attnlab {
class RunStore;
}

namespace attnlab::ui {

// The stored curves of a set of runs, read once from the store (one batched query per metric and split,
// RunStore::curves) and then drawn as often as the options change: each run's record, configuration,
// every (split, metric) curve by step, and its epoch / wall-time axis.
class RunCurves {
public:
    // The metrics a comparison draws, in the order of its panels.
    static const QStringList& metricOrder();
    // A metric drawn against something other than the step: "grad_by_distance", each run's gradient norm by input
    // position (x = distance from the last word) at its last evaluation, read from dev grad_by_distance.<d> and
    // divided by its value at distance 0 (so runs whose losses differ compare); "grad_by_layer", each run's
    // gradient norm per layer (x = the layer's place in the model, train grad_norm.<layer>) at its last log step.
    // gradient norm per layer (x = the layer's place in the model, train grad_norm.<layer>) at its last log step;
    // "step_ms_by_length", "forward_ms_by_length", "memory_by_length": a `bench --lengths` run's figures (x = length);
    // "forecast", below.
    static bool isProfile(const QString& metric);
    static bool isLengthProfile(const QString& metric); // drawn log-log
    // The layers of "grad_by_layer" when every run that has them has the same (the x axis' labels), else empty.
    const QStringList& layerNames() const { return layerNames_; }
    // "forecast" (also a profile): each time-series run's test predictions, x = the series' row, from the forecast
    // the trainer kept with it (SeriesForecast); "forecast_error", the prediction less the real value;
    // "rmse_by_horizon", a run predicting several steps ahead: its test RMSE at each step (x = steps ahead). The real series and the attention are those of the first run that
    // has them: the runs compared are meant to share their dataset.
    struct ForecastAttention {
        int run = -1;                          // index of the run it is from; -1: no run has attention
        QString name;                          // "temporal attention"
        int firstRow = 0, window = 0;
        std::vector<std::vector<float>> rows;  // per test row, `window` weights, the oldest step first
    };
    const std::vector<CurvePoint>& forecastActual() const { return forecastActual_; }
    const QString& forecastTarget() const { return forecastTarget_; }
    const ForecastAttention& forecastAttention() const { return forecastAttention_; }

    RunCurves() = default;
    // Ids the store does not have are left out and listed by missingIds(). Reads the metrics of metricOrder() and
    // `alsoMetrics` (e.g. one layer's "grad_norm.block0"), not the axes.
    static RunCurves load(const RunStore& store, const QList<qint64>& runIds, const QStringList& alsoMetrics = {});
    // Reads the runs' epochs or wall seconds, once, when that x axis is first asked for (as many rows as
    // the loss again: not worth reading while x is the step).
    void loadAxis(const RunStore& store, CompareAxis axis);

    int size() const { return static_cast<int>(runs_.size()); }
    const RunRecord& run(int index) const { return runs_[static_cast<std::size_t>(index)]; }
    const QList<qint64>& missingIds() const { return missing_; }

    // The metrics present in any run (any split), in metricOrder().
    QStringList metrics() const;
    bool has(const QString& split, const QString& metric) const;
    // A run's curve, x = step; empty when the run did not log it.
    const std::vector<CurvePoint>& curve(int run, const QString& split, const QString& metric) const;
    // Known (step, epoch) or (step, wall seconds) points of a run (after loadAxis); empty for
    // CompareAxis::Step and for runs stored before the trainer logged them.
    const std::vector<CurvePoint>& axis(int run, CompareAxis axis) const;
    QList<qint64> runsWithoutAxis(CompareAxis axis) const;

    // A configuration value as text ("ssan", "0.001", "true"); model, position and dataset from the record.
    QString configValue(int run, const QString& key) const;
    // The config keys whose values differ among the runs (seed left out: repeats always differ in it).
    QStringList differingKeys() const;
    bool datasetsDiffer() const;
    // "#12 ssan + rpr", or "#12 NAME" for a benchmark's run (+ " · sst-binary" when the runs' datasets differ).
    QString label(int run) const;

private:
    std::vector<std::int64_t> ids_;
    std::vector<RunRecord> runs_;
    std::vector<QJsonObject> configs_;
    QHash<QString, std::vector<std::vector<CurvePoint>>> curves_; // "split/metric" -> per run
    std::vector<std::vector<CurvePoint>> epochs_, wallSeconds_;   // per run, once loaded
    bool epochsLoaded_ = false, wallSecondsLoaded_ = false;
    QList<qint64> missing_;
    QStringList layerNames_;
    void loadLayerProfiles(const RunStore& store);
    void loadLengthProfiles(const RunStore& store);
    void loadForecasts(const RunStore& store);
    std::vector<CurvePoint> forecastActual_;
    QString forecastTarget_;
    ForecastAttention forecastAttention_;
};

} // namespace attnlab::ui
