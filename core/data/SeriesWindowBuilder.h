#pragma once
#include "core/data/SeriesDataset.h"

#include <string>
#include <vector>

namespace attnlab {

// Turns a multivariate series (rows in time order) into scaled windows, the thesis' protocol (6.1, 6.3):
// - one window per time step t: steps t-T+1..t of the drivers and of the target's history, predicting y_t;
//   steps before the first row repeat the first row (so the first rows still get a window and the
//   window count equals the row count: SML2010's 3200/400/537);
// - with a horizon H > 1, each window predicts y_t .. y_{t+H-1} at once, from the same past; a window is kept only
//   when all H targets lie in its own split (no training target from dev, none past the series' end), so each
//   split has H - 1 windows fewer;
// - the last step's target, unknown at prediction time, is filled with the previous value;
// - splits in time order: the first trainRows targets train, the next devRows dev, the rest test;
// - min-max scaling of every series to [0, scaleTop] with train statistics (a series constant on train
//   maps to 0).
class SeriesWindowBuilder {
public:
    struct Input {
        std::string id, name, source;         // source: file (or generator) for error messages
        std::vector<std::string> driverNames;
        std::string targetName;
        std::vector<std::vector<double>> drivers; // [rows][F]
        std::vector<double> target;               // [rows]
        int window = 10;
        int horizon = 1;
        int trainRows = 0, devRows = 0;           // the test split is the rest
        double scaleTop = 0.75;
    };
    static SeriesDataset build(const Input& input);
};

} // namespace attnlab
