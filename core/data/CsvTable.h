#pragma once
#include <string>
#include <vector>

namespace attnlab {

// A delimited text file (CSV, TSV, ...) read the way a spreadsheet imports it: the delimiter is detected
// among comma, tab, semicolon and bar unless given; double quotes may wrap fields (with "" for a quote,
// and line breaks inside); a header row is detected (a first row of names above numbers, or of usual
// column names) unless told. Rows whose field count differs from the first row's are errors naming the line.
class CsvTable {
public:
    struct Options {
        char delimiter = 0; // 0 = detect
        int header = -1;    // -1 = detect, 0 = none, 1 = first row is the header
    };

    static CsvTable read(const std::string& path, const Options& options);
    static CsvTable parse(const std::string& text, const std::string& source, const Options& options);

    // Index of a column given by header name (case-insensitive) or 1-based number; throws DataError naming
    // the setting and the columns that exist.
    int columnIndex(const std::string& nameOrNumber, const std::string& setting) const;
    static bool isNumber(const std::string& field, double* value = nullptr);

    std::string source;
    char delimiter = ',';
    bool hasHeader = false;
    std::vector<std::string> columns;            // header names, or "1", "2", ... without a header
    std::vector<std::vector<std::string>> rows;  // data rows only
    std::vector<int> lines;                      // 1-based line where each data row starts
};

} // namespace attnlab
