#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/TextDataset.h"

#include <utility>

namespace attnlab {

class CsvTable;

// The user's own classification data (csv-text): a CSV/TSV with a text column and a label column, either
// one file split at random by seed into train/dev/test fractions, or one file per split. Classes are the
// train file's distinct labels (numeric order when all are integers, else alphabetical); a dev or test
// label that train never had is an error naming file and line.
class CsvTextReader {
public:
    static TextDataset read(const DatasetOptions& options);
    // The 0-based (text, label) columns a load of this table uses: the ones named in options, else the
    // last column as label and the first other column whose first row is not a number as text. Throws
    // DataError naming the setting (a column that does not exist, or no text column).
    static std::pair<int, int> columnsOf(const CsvTable& table, const DatasetOptions& options);
};

} // namespace attnlab
