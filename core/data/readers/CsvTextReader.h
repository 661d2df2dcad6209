#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/TextDataset.h"

namespace attnlab {

// The user's own classification data (csv-text): a CSV/TSV with a text column and a label column, either
// one file split at random by seed into train/dev/test fractions, or one file per split. Classes are the
// train file's distinct labels (numeric order when all are integers, else alphabetical); a dev or test
// label that train never had is an error naming file and line.
class CsvTextReader {
public:
    static TextDataset read(const DatasetOptions& options);
};

} // namespace attnlab
