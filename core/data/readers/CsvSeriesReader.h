#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/SeriesDataset.h"

namespace attnlab {

// The user's own time series (csv-series): a CSV/TSV with rows in time order, a target column (name or
// number), driving columns (given, or every other numeric column), window T and train/dev fractions
// (time order, the rest is test). Cells go through MissingValues::cellValue: a missing cell follows the
// missing-value policy, inf or 1e999 is an error naming file, line and column. A column of text (its
// first non-missing cell is not a number: a weekday, a date) is left out of the drivers with a note, or
// one-hot encoded with categorical = onehot; as the target, or named as a driver without onehot, it is an
// error. A missing target column or a series shorter than the window is an error naming the setting.
class CsvSeriesReader {
public:
    static SeriesDataset read(const DatasetOptions& options);
    // onehot: a text column with more distinct values than this (an id, a timestamp) is skipped instead.
    static constexpr int kMaxCategories = 50;
};

} // namespace attnlab
