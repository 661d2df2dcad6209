// Time series files through DatasetCatalog::loadSeries: the user's CSV/TSV (csv-series) with every
// option (delimiter, header, quoting, missing-value policy, categorical columns, target and driver
// columns, window, fractions, scaling), or SML2010's two whitespace files (the body's two parts).
#include "core/data/DatasetCatalog.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

#include <utility>
#include <vector>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 11);
    const auto& scratch = fuzz::ScratchFolder::instance();
    DatasetOptions o;
    o.dataDir = scratch.path();
    o.missing = in.pick<std::string>(1, {"error", "drop", "ffill", "interpolate"});
    o.window = in.pick<int>(2, {1, 2, 3, 10, 0});
    o.scaleTop = in.pick<double>(3, {0.75, 1.0});
    if (in.choice(0, 4) == 3) { // SML2010: the window and the missing-value policy apply
        scratch.write("sml2010/NEW-DATA-1.T15.txt", in.part(0));
        scratch.write("sml2010/NEW-DATA-2.T15.txt", in.part(1));
        fuzz::CleanFailure::expect([&] { DatasetCatalog::loadSeries("sml2010", o); });
        return 0;
    }
    o.delimiter = in.pick<char>(4, {0, ',', '\t', ';', '|'});
    o.header = in.pick<int>(5, {-1, 0, 1});
    o.quoting = in.pick<std::string>(6, {"auto", "on", "off"});
    o.categorical = in.pick<std::string>(7, {"skip", "onehot"});
    o.targetColumn = in.pick<std::string>(8, {"1", "2", "3", "y", "target", "0"});
    o.driverColumns = in.pick<std::vector<std::string>>(9, {{}, {"1"}, {"2", "3"}, {"x"}, {"day"}});
    const auto fractions = in.pick<std::pair<double, double>>(10, {{0.7, 0.15}, {0.34, 0.33}, {0.9, 0.05}, {1.0, 0.0}});
    o.trainFraction = fractions.first;
    o.devFraction = fractions.second;
    o.file = scratch.write("series.csv", in.body());
    fuzz::CleanFailure::expect([&] { DatasetCatalog::loadSeries("csv-series", o); });
    return 0;
}
