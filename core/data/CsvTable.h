#pragma once
#include <string>
#include <vector>

namespace attnlab {

// A delimited text file (CSV, TSV, ...) read the way a spreadsheet imports it: the delimiter is detected
// among comma, tab, semicolon and bar unless given; double quotes may wrap fields (with "" for a quote,
// and line breaks inside) unless quoting is off; a header row is detected (a first row of names above
// numbers, or of usual column names) unless told. Rows whose field count differs from the first row's are
// errors naming the line.
class CsvTable {
public:
    // Auto: quotes wrap fields in comma/semicolon/bar files (RFC 4180) but are plain text in tab-separated
    // ones: the TSV convention (IANA text/tab-separated-values) has no quoting, since a field cannot hold a
    // tab, and review/tweet TSVs carry stray quotes that would swallow the lines after them.
    enum class Quoting { Auto, On, Off };
    struct Options {
        char delimiter = 0; // 0 = detect
        int header = -1;    // -1 = detect, 0 = none, 1 = first row is the header
        Quoting quoting = Quoting::Auto;
    };
    // "auto" | "on" | "off"; throws DataError naming the setting otherwise.
    static Quoting quotingFromName(const std::string& name);
    // Quoted fields that span lines are reported (the first kMaxQuoteNotes, then a count): a stray quote
    // swallows the lines after it, and this says where it starts.
    static constexpr int kMaxQuoteNotes = 5;

    static CsvTable read(const std::string& path, const Options& options);
    static CsvTable parse(const std::string& text, const std::string& source, const Options& options);

    // Index of a column given by header name (case-insensitive) or 1-based number; throws DataError naming
    // the setting and the columns that exist.
    int columnIndex(const std::string& nameOrNumber, const std::string& setting) const;
    // A finite number (NumericCell::Kind::Number): not "inf", "nan" or an empty field.
    static bool isNumber(const std::string& field, double* value = nullptr);

    std::string source;
    char delimiter = ',';
    bool hasHeader = false;
    std::vector<std::string> columns;            // header names, or "1", "2", ... without a header
    std::vector<std::vector<std::string>> rows;  // data rows only
    std::vector<int> lines;                      // 1-based line where each data row starts
    bool quoted = true;                          // quoting in effect (Options::quoting resolved)
    std::vector<std::string> notes;              // "FILE:LINE: a quoted field starts here and spans N lines"
};

} // namespace attnlab
