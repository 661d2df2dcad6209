#pragma once
#include "core/config/DatasetOptions.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// What importing the user's own CSV/TSV (csv-text, csv-series or csv-pairs) would give, for the import dialog: the
// first file read by CsvTable as the load reads it (detected delimiter, header and quoting, column names,
// the first rows, rows against the file's lines), then the load itself (DatasetCatalog::loadAny) for the
// split sizes or the error that training would meet. Every problem names its file and, where there is
// one, its line. Nothing here parses CSV: CsvTable and the readers do; so the preview cannot disagree
// with training.
struct CsvPreview {
    struct Problem {
        std::string text; // "FILE:LINE: what" (DataError's wording, or a reader's note)
        std::string file;
        int line = 0;     // 0: the file as a whole or a setting
        bool error = false; // stops the load (otherwise a note)
    };
    // One file of the import as CsvTable reads it.
    struct FileFacts {
        std::string path;
        bool read = false;          // CsvTable read it whole
        int rows = 0;               // data rows (header excluded)
        int lines = 0;              // lines holding anything (blank lines are no rows)
        int quotedSpans = 0;        // quoted fields that span lines (why rows can be fewer than lines)
    };
    // One column of the previewed table and the role the load gives it.
    // csv-pairs: Source and Target (the target sentences' column).
    enum class Role { None, Text, Label, Target, Driver, Ignored, Source };

    std::string datasetId;
    // The previewed (first) file: what CsvTable detected, and its first rows. When the file has an error,
    // the rows before the error line are shown (read the same way).
    bool tableRead = false;
    char delimiter = 0;
    bool hasHeader = false;
    bool quoted = false;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;  // at most maxRows
    std::vector<int> rowLines;                   // the line each shown row starts on
    std::vector<Role> roles;                     // per column
    std::vector<bool> textColumns;               // per column: its first non-missing cell is not a number
    std::vector<FileFacts> files;                // each file of the import, in order (file, or train/dev/test)

    // The load (DatasetCatalog::loadAny): split sizes (examples, or windows for a series) or the error.
    bool loaded = false;
    std::int64_t train = 0, dev = 0, test = 0;   // csv-pairs: sentence pairs
    std::vector<std::string> classes;            // csv-text
    std::vector<std::string> drivers;            // csv-series: the driving series the load uses
    std::string missingPolicy;                   // csv-series
    std::int64_t missingCells = 0, missingRows = 0;
    std::vector<Problem> problems;               // errors first, then notes; each once

    bool regression() const { return datasetId == "csv-series"; }
    bool translation() const { return datasetId == "csv-pairs"; }
    bool hasError() const;

    // Reads options' file(s) for dataset id csv-text, csv-series or csv-pairs and loads them; never throws
    // for bad data (it becomes a Problem). csv-pairs' parallel line files are counted, not read as tables.
    static CsvPreview of(const std::string& datasetId, const DatasetOptions& options, int maxRows = 50);
    // The files an import reads: options.file, or train/dev/test files when a train file is given, or
    // csv-pairs' line files (source, target, dev and test ones) when a source or target file is given.
    static std::vector<std::string> filesOf(const DatasetOptions& options);
};

} // namespace attnlab
