#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/SeriesDataset.h"

#include <string>
#include <vector>

namespace attnlab {

// SML2010 (UCI 274) as in Qin et al. 2017 and thesis chapter 6: NEW-DATA-1.T15.txt then NEW-DATA-2.T15.txt
// as one series of 4,137 steps; target column 3 (dining-room temperature); 16 driving series (columns
// 5-18, 22, 23 — see docs/DATASETS.md for which are left out and why); window T = 10;
// 3200/400/537 windows in time order; min-max scaling to [0, 0.75] with train statistics.
class Sml2010Reader {
public:
    static SeriesDataset read(const std::string& folder, const DatasetOptions& options);
    static const std::vector<int>& driverColumns(); // 1-based, as in the file's header
    static constexpr int kTargetColumn = 3;
};

} // namespace attnlab
