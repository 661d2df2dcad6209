#pragma once
#include "core/data/SeriesWindow.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// A time-series regression dataset in windows, split in time order, scaled with train statistics.
struct SeriesDataset {
    std::string id;
    std::string name;
    int window = 10;                       // T
    int horizon = 1;                       // H: each window's targets y_T .. y_{T+H-1}
    int firstTestRow = 0;                  // the row the first test window predicts (the forecast's x axis)
    std::vector<std::string> driverNames;  // F names
    std::string targetName;
    std::vector<SeriesWindow> train, dev, test;
    // Min-max scaling of the target to [0, scaleTop] from train statistics (thesis: [0, 0.75]).
    double targetMin = 0.0, targetMax = 1.0, scaleTop = 0.75;
    std::vector<double> driverMin, driverMax; // the same scaling, per driving series
    // Missing cells found and what the policy did with them (DatasetOptions::missing).
    std::string missingPolicy;
    std::int64_t missingCells = 0, missingRows = 0;
    // What reading the file found that the user should know, each "FILE[:LINE]: what" (TextDataset::notes):
    // filled or dropped cells, skipped text columns.
    std::vector<std::string> notes;
    // Synthetic data only: the driver and lag the target really depends on (attention's ground truth).
    int trueDriver = -1, trueLag = -1;

    int drivers() const { return static_cast<int>(driverNames.size()); }
    // Back to the original units, for MAE / MAPE / RMSE (thesis Table 6.2).
    double denormalise(double scaled) const { return targetMin + scaled / scaleTop * (targetMax - targetMin); }
};

} // namespace attnlab
