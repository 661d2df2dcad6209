#include "core/data/CsvTable.h"

#include "core/data/DataError.h"
#include "core/data/NumericCell.h"
#include "core/data/TextFile.h"
#include "core/data/Tokenizer.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace attnlab {
namespace {

struct RawRow {
    std::vector<std::string> fields;
    int line = 0;
    int spanStart = 0, spanLines = 0; // the row's first quoted field that spans lines (0 = none)
};

// A quoted field that spans lines: where it starts and how many lines it covers.
struct QuotedSpan {
    int line = 0, lines = 0;
};

std::string quoteHint(int line, int lines)
{
    return "a quoted field starts at line " + std::to_string(line) + " and spans " + std::to_string(lines) +
           " lines (if its quotes are part of the text, set quoting off)";
}

std::vector<RawRow> split(const std::string& text, char delimiter, bool quoting, const std::string& source,
                          std::vector<QuotedSpan>& spans)
{
    std::vector<RawRow> rows;
    RawRow row;
    std::string field;
    bool quoted = false, fieldStarted = false;
    int line = 1, quoteLine = 0;
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
                else {
                    quoted = false;
                    if (line > quoteLine) {
                        spans.push_back({quoteLine, line - quoteLine + 1});
                        if (!row.spanStart) { row.spanStart = quoteLine; row.spanLines = line - quoteLine + 1; }
                    }
                }
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        if (quoting && c == '"' && !fieldStarted) { quoted = true; fieldStarted = true; quoteLine = line; }
        else if (c == delimiter) endField();
        else if (c == '\n') { endRow(); ++line; }
        else if (c == '\r') {}
        else { field += c; fieldStarted = true; }
    }
    if (quoted)
        throw DataError(source, quoteLine, "a quoted field starts here and is never closed (missing '\"'; if its quotes "
                                           "are part of the text, set quoting off)");
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
    // Sentence pairs (csv-pairs) are text over text: only their usual names tell a header ("de,en").
    static const char* kNames[] = {"text", "label", "sentence", "review", "sentiment", "class", "target", "y", "date",
                                   "time", "value", "id", "tweet", "comment", "category", "polarity", "source",
                                   "translation", "src", "tgt", "en", "de", "fr", "english", "german", "french"};
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
    return NumericCell::classify(field, value) == NumericCell::Kind::Number;
}

CsvTable::Quoting CsvTable::quotingFromName(const std::string& name)
{
    if (name == "auto") return Quoting::Auto;
    if (name == "on") return Quoting::On;
    if (name == "off") return Quoting::Off;
    throw DataError("quoting", 0, "setting quoting: unknown '" + name + "' (known: auto, on, off)");
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
    t.quoted = options.quoting == Quoting::On || (options.quoting == Quoting::Auto && t.delimiter != '\t');
    std::vector<QuotedSpan> spans;
    auto raw = split(text, t.delimiter, t.quoted, source, spans);
    for (std::size_t i = 0; i < spans.size() && i < static_cast<std::size_t>(kMaxQuoteNotes); ++i)
        t.notes.push_back(source + ":" + std::to_string(spans[i].line) + ": a quoted field starts here and spans " +
                          std::to_string(spans[i].lines) + " lines");
    if (spans.size() > static_cast<std::size_t>(kMaxQuoteNotes))
        t.notes.push_back(source + ": " + std::to_string(spans.size() - kMaxQuoteNotes) + " more quoted fields span lines (" +
                          std::to_string(spans.size()) + " in all; if their quotes are part of the text, set quoting off)");
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
                                " (delimiter '" + (t.delimiter == '\t' ? std::string("\\t") : std::string(1, t.delimiter)) + "')" +
                                (raw[r].spanStart ? "; " + quoteHint(raw[r].spanStart, raw[r].spanLines) : std::string()));
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
