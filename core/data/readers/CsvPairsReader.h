#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/TranslationDataset.h"

#include <utility>

namespace attnlab {

class CsvTable;

// The user's own sentence pairs (csv-pairs), as a translation dataset:
// - a CSV/TSV (read by CsvTable as csv-text reads it) with a source and a target column: one file split at
//   random by seed into train/dev/test fractions, or one file per split (DatasetOptions file, or
//   trainFile/devFile/testFile; sourceColumn, targetColumn);
// - or two files of parallel lines, one sentence a line (plain or gzip, as Multi30k's): sourceFile and
//   targetFile split by fractions, or with devSourceFile ... testTargetFile one pair of files per split.
// A row with an empty source or target, and an empty line in a line file, is a DataError naming file and
// line; two line files whose line counts differ name both files and both counts. Tokens: the options'
// translationTokenizer (words by default) and lowercase; the length cap (maxPairLength) drops training
// pairs only, stated in the notes.
class CsvPairsReader {
public:
    static TranslationDataset read(const DatasetOptions& options);
    // The 0-based (source, target) columns a load of this table uses: the ones named in options, else the
    // first column whose first row is not a number as source and the next such column after it (else before
    // it) as target. Throws DataError naming the setting (a column that does not exist, the same column
    // twice, too few text columns).
    static std::pair<int, int> columnsOf(const CsvTable& table, const DatasetOptions& options);
};

} // namespace attnlab
