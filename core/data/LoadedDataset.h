#pragma once
#include "core/data/SeriesDataset.h"
#include "core/data/TextDataset.h"

namespace attnlab {

// A dataset of either task, as DatasetCatalog::loadAny returns it: text for classification ids, series
// (windows) for regression ids. Only the one that `regression` names is filled in.
struct LoadedDataset {
    bool regression = false;
    TextDataset text;
    SeriesDataset series;

    const std::vector<std::string>& notes() const { return regression ? series.notes : text.notes; }
};

} // namespace attnlab
