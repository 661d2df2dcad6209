#include "core/data/readers/SyntheticLag.h"

#include "core/data/DataError.h"
#include "core/data/SeriesWindowBuilder.h"

#include <cmath>
#include <random>

namespace attnlab {

SeriesDataset SyntheticLag::generate(const DatasetOptions& o)
{
    const std::string source = "synthetic-lag";
    if (o.seriesDrivers < 1)
        throw DataError(source, 0, "setting drivers: must be at least 1");
    if (o.leadDriver < 0 || o.leadDriver >= o.seriesDrivers)
        throw DataError(source, 0, "setting lead driver: must be in 0.." + std::to_string(o.seriesDrivers - 1));
    if (o.lag < 1 || o.lag >= o.window)
        throw DataError(source, 0, "setting lag: must be in 1.." + std::to_string(o.window - 1) +
                                       " so that the cause lies inside the window T = " + std::to_string(o.window));
    std::mt19937_64 rng(o.seed);
    std::normal_distribution<double> gauss(0.0, 1.0);
    const int n = o.seriesLength;
    SeriesWindowBuilder::Input in;
    in.id = "synthetic-lag";
    in.name = "Synthetic lagged series";
    in.source = source;
    in.window = o.window;
    in.horizon = o.horizon;
    in.trainRows = static_cast<int>(n * o.trainFraction);
    in.devRows = static_cast<int>(n * o.devFraction);
    in.scaleTop = o.scaleTop;
    in.targetName = "y";
    for (int k = 0; k < o.seriesDrivers; ++k) in.driverNames.push_back("x" + std::to_string(k + 1));
    // Drivers: AR(1) processes (smooth, each with its own memory) so no two look alike.
    std::vector<double> state(static_cast<std::size_t>(o.seriesDrivers), 0.0);
    in.drivers.resize(static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t) {
        for (int k = 0; k < o.seriesDrivers; ++k) {
            const double phi = 0.5 + 0.4 * k / std::max(1, o.seriesDrivers - 1);
            auto& s = state[static_cast<std::size_t>(k)];
            s = phi * s + std::sqrt(1 - phi * phi) * gauss(rng);
            in.drivers[static_cast<std::size_t>(t)].push_back(s);
        }
    }
    double y = 0.0;
    for (int t = 0; t < n; ++t) {
        const double cause = t >= o.lag ? in.drivers[static_cast<std::size_t>(t - o.lag)][static_cast<std::size_t>(o.leadDriver)] : 0.0;
        y = 0.6 * y + 0.8 * cause + o.noise * gauss(rng);
        in.target.push_back(y);
    }
    SeriesDataset d = SeriesWindowBuilder::build(in);
    d.trueDriver = o.leadDriver;
    d.trueLag = o.lag;
    return d;
}

} // namespace attnlab
