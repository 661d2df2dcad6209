#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/SeriesDataset.h"

namespace attnlab {

// The user's own time series (csv-series): a CSV/TSV with rows in time order, a target column (name or
// number), driving columns (given, or every other numeric column), window T and train/dev fractions
// (time order, the rest is test). A missing target column, a non-numeric cell or a series shorter than
// the window is an error naming the setting or the file and line.
class CsvSeriesReader {
public:
    static SeriesDataset read(const DatasetOptions& options);
};

} // namespace attnlab
