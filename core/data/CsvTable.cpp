#include "core/data/CsvTable.h"

#include "core/data/DataError.h"
#include "core/data/TextFile.h"
#include "core/data/Tokenizer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace attnlab {
namespace {

struct RawRow {
    std::vector<std::string> fields;
    int line = 0;
};

std::vector<RawRow> split(const std::string& text, char delimiter, const std::string& source)
{
    std::vector<RawRow> rows;
    RawRow row;
    std::string field;
    bool quoted = false, fieldStarted = false;
    int line = 1;
    row.line = 1;
    auto endField = [&] {
        row.fields.push_back(field);
        field.clear();
        fieldStarted = false;
    };
    auto endRow = [&] {
        endField();
        const bool blank = row.fields.size() == 1 && row.fields[0].empty();
        if (!blank)
            rows.push_back(std::move(row));
        row = RawRow{};
        row.line = line + 1;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') { field += '"'; ++i; }
                else quoted = false;
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        if (c == '"' && !fieldStarted) { quoted = true; fieldStarted = true; }
        else if (c == delimiter) endField();
        else if (c == '\n') { endRow(); ++line; }
        else if (c == '\r') {}
        else { field += c; fieldStarted = true; }
    }
    if (quoted)
        throw DataError(source, row.line, "a quoted field is never closed (missing '\"')");
    if (!field.empty() || !row.fields.empty())
        endRow();
    return rows;
}

char detectDelimiter(const std::string& text)
{
    // The candidate that appears the same non-zero number of times on the most of the first lines wins.
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; lines.size() < 20 && std::getline(in, l);)
        if (!l.empty()) lines.push_back(l);
    char best = ',';
    std::size_t bestScore = 0;
    for (char d : {'\t', ',', ';', '|'}) {
        if (lines.empty()) break;
        const auto first = std::count(lines[0].begin(), lines[0].end(), d);
        if (first == 0) continue;
        std::size_t score = 0;
        for (const auto& l : lines)
            if (std::count(l.begin(), l.end(), d) == first) ++score;
        if (score > bestScore) { best = d; bestScore = score; }
    }
    return best;
}

bool looksLikeHeader(const std::vector<RawRow>& rows)
{
    if (rows.size() < 2)
        return false;
    static const char* kNames[] = {"text", "label", "sentence", "review", "sentiment", "class", "target", "y", "date",
                                   "time", "value", "id", "tweet", "comment", "category", "polarity"};
    const auto& first = rows[0].fields;
    for (const auto& f : first) {
        const std::string lower = Tokenizer::lowercased(f);
        for (const char* n : kNames)
            if (lower == n) return true;
    }
    // A column whose first field is not a number while the next rows' are.
    for (std::size_t c = 0; c < first.size(); ++c) {
        if (CsvTable::isNumber(first[c])) continue;
        bool below = true;
        for (std::size_t r = 1; r < std::min<std::size_t>(rows.size(), 6); ++r)
            if (c >= rows[r].fields.size() || !CsvTable::isNumber(rows[r].fields[c])) below = false;
        if (below) return true;
    }
    return false;
}

} // namespace

bool CsvTable::isNumber(const std::string& field, double* value)
{
    const auto b = field.find_first_not_of(" \t");
    if (b == std::string::npos) return false;
    const auto e = field.find_last_not_of(" \t");
    const std::string t = field.substr(b, e - b + 1);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || errno == ERANGE) return false;
    if (value) *value = v;
    return true;
}

CsvTable CsvTable::read(const std::string& path, const Options& options)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw DataError(path, 0, "cannot open the file (missing or unreadable)");
    std::ostringstream s;
    s << in.rdbuf();
    return parse(s.str(), path, options);
}

CsvTable CsvTable::parse(const std::string& rawText, const std::string& source, const Options& options)
{
    std::string text = rawText;
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3); // spreadsheet exports start with a BOM
    if (auto bad = TextFile::invalidUtf8Offset(text); bad != std::string::npos) {
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(bad), '\n'));
        throw DataError(source, line, "invalid UTF-8 (save the file as UTF-8)");
    }
    CsvTable t;
    t.source = source;
    t.delimiter = options.delimiter ? options.delimiter : detectDelimiter(text);
    auto raw = split(text, t.delimiter, source);
    if (raw.empty())
        throw DataError(source, 0, "the file has no rows");
    t.hasHeader = options.header < 0 ? looksLikeHeader(raw) : options.header == 1;
    const std::size_t width = raw[0].fields.size();
    if (t.hasHeader) {
        t.columns = raw[0].fields;
    } else {
        for (std::size_t c = 0; c < width; ++c) t.columns.push_back(std::to_string(c + 1));
    }
    for (std::size_t r = t.hasHeader ? 1 : 0; r < raw.size(); ++r) {
        if (raw[r].fields.size() != width)
            throw DataError(source, raw[r].line,
                            std::string(raw[r].fields.size() < width ? "short row: " : "long row: ") +
                                std::to_string(raw[r].fields.size()) + " fields, expected " + std::to_string(width) +
                                " (delimiter '" + (t.delimiter == '\t' ? std::string("\\t") : std::string(1, t.delimiter)) + "')");
        t.rows.push_back(std::move(raw[r].fields));
        t.lines.push_back(raw[r].line);
    }
    return t;
}

int CsvTable::columnIndex(const std::string& nameOrNumber, const std::string& setting) const
{
    const std::string wanted = Tokenizer::lowercased(nameOrNumber);
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (Tokenizer::lowercased(columns[c]) == wanted)
            return static_cast<int>(c);
    double n = 0;
    if (isNumber(nameOrNumber, &n) && n >= 1 && n <= static_cast<double>(columns.size()) && n == static_cast<int>(n))
        return static_cast<int>(n) - 1;
    std::string known;
    for (const auto& c : columns) known += (known.empty() ? "" : ", ") + c;
    throw DataError(source, 0, "setting " + setting + ": column '" + nameOrNumber + "' does not exist (columns: " + known + ")");
}

} // namespace attnlab
