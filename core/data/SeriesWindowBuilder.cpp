#include "core/data/SeriesWindowBuilder.h"

#include "core/data/DataError.h"

#include <algorithm>

namespace attnlab {

SeriesDataset SeriesWindowBuilder::build(const Input& in)
{
    const int rows = static_cast<int>(in.target.size());
    if (in.window < 1)
        throw DataError(in.source, 0, "setting window: must be at least 1, got " + std::to_string(in.window));
    if (rows < in.window + 2)
        throw DataError(in.source, 0, "the series has " + std::to_string(rows) + " rows, shorter than the window T = " +
                                          std::to_string(in.window) + " plus one dev and one test step");
    if (in.trainRows < in.window || in.devRows < 1 || in.trainRows + in.devRows >= rows)
        throw DataError(in.source, 0, "setting splits: " + std::to_string(in.trainRows) + " train / " +
                                          std::to_string(in.devRows) + " dev rows do not fit " + std::to_string(rows) +
                                          " rows with window " + std::to_string(in.window) + " (train needs at least a window, dev and test a row each)");
    if (in.horizon < 1)
        throw DataError(in.source, 0, "setting horizon: must be at least 1 step ahead, got " + std::to_string(in.horizon));
    const int testRows = rows - in.trainRows - in.devRows;
    if (in.horizon > std::min({in.trainRows, in.devRows, testRows}))
        throw DataError(in.source, 0, "setting horizon: " + std::to_string(in.horizon) + " steps ahead need that many rows in " +
                                          "each split, and the series splits into " + std::to_string(in.trainRows) + " train / " +
                                          std::to_string(in.devRows) + " dev / " + std::to_string(testRows) + " test rows");
    const std::size_t features = in.driverNames.size();

    SeriesDataset d;
    d.id = in.id;
    d.name = in.name;
    d.window = in.window;
    d.horizon = in.horizon;
    d.firstTestRow = in.trainRows + in.devRows;
    d.driverNames = in.driverNames;
    d.targetName = in.targetName;
    d.scaleTop = in.scaleTop;

    auto minMax = [&](auto value, double& lo, double& hi) {
        lo = hi = value(0);
        for (int r = 1; r < in.trainRows; ++r) {
            lo = std::min(lo, value(r));
            hi = std::max(hi, value(r));
        }
    };
    minMax([&](int r) { return in.target[static_cast<std::size_t>(r)]; }, d.targetMin, d.targetMax);
    d.driverMin.resize(features);
    d.driverMax.resize(features);
    for (std::size_t f = 0; f < features; ++f)
        minMax([&](int r) { return in.drivers[static_cast<std::size_t>(r)][f]; }, d.driverMin[f], d.driverMax[f]);

    auto scale = [&](double v, double lo, double hi) {
        return hi > lo ? static_cast<float>((v - lo) / (hi - lo) * in.scaleTop) : 0.0f;
    };
    for (int t = 0; t < rows; ++t) {
        SeriesWindow w;
        w.drivers.reserve(static_cast<std::size_t>(in.window) * features);
        for (int s = t - in.window + 1; s <= t; ++s) {
            const auto r = static_cast<std::size_t>(std::max(0, s));
            for (std::size_t f = 0; f < features; ++f)
                w.drivers.push_back(scale(in.drivers[r][f], d.driverMin[f], d.driverMax[f]));
            const auto known = static_cast<std::size_t>(std::max(0, s == t ? t - 1 : s));
            w.targetHistory.push_back(scale(in.target[known], d.targetMin, d.targetMax));
        }
        w.target = scale(in.target[static_cast<std::size_t>(t)], d.targetMin, d.targetMax);
        // The split's last row: every target of a kept window lies in the split of its first.
        const int end = t < in.trainRows ? in.trainRows : t < in.trainRows + in.devRows ? in.trainRows + in.devRows : rows;
        if (t + in.horizon > end)
            continue;
        for (int h = 0; h < in.horizon; ++h)
            w.ahead.push_back(scale(in.target[static_cast<std::size_t>(t + h)], d.targetMin, d.targetMax));
        (t < in.trainRows ? d.train : t < in.trainRows + in.devRows ? d.dev : d.test).push_back(std::move(w));
    }
    return d;
}

} // namespace attnlab
