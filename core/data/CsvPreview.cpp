#include "core/data/CsvPreview.h"

#include "core/data/CsvTable.h"
#include "core/data/DataError.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/NumericCell.h"
#include "core/data/readers/CsvPairsReader.h"
#include "core/data/readers/CsvTextReader.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>

namespace attnlab {
namespace {

// "FILE:LINE: what" (or "FILE: what") split back into file and line, for the files of this import.
CsvPreview::Problem problemOf(const std::string& text, bool error, const std::vector<std::string>& files)
{
    CsvPreview::Problem p{text, {}, 0, error};
    for (const auto& f : files) {
        if (f.empty() || text.compare(0, f.size(), f) != 0 || text.size() <= f.size() || text[f.size()] != ':')
            continue;
        p.file = f;
        std::size_t i = f.size() + 1;
        int line = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9' && line < 100000000)
            line = line * 10 + (text[i++] - '0');
        if (i < text.size() && text[i] == ':')
            p.line = line;
        break;
    }
    return p;
}

void add(std::vector<CsvPreview::Problem>& problems, CsvPreview::Problem p)
{
    for (auto& existing : problems)
        if (existing.text == p.text) {
            existing.error = existing.error || p.error;
            return;
        }
    problems.push_back(std::move(p));
}

bool readBytes(const std::string& path, std::string& text)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
    return true;
}

// Lines that hold anything: CsvTable makes no row of a blank line.
int nonBlankLines(const std::string& text)
{
    int lines = 0;
    bool content = false;
    for (char c : text) {
        if (c == '\n') {
            lines += content ? 1 : 0;
            content = false;
        } else if (c != '\r') {
            content = true;
        }
    }
    return lines + (content ? 1 : 0);
}

// Offset where 1-based line `line` starts.
std::size_t lineStart(const std::string& text, int line)
{
    std::size_t offset = 0;
    for (int l = 1; l < line && offset != std::string::npos; ++l) {
        offset = text.find('\n', offset);
        if (offset != std::string::npos) ++offset;
    }
    return offset == std::string::npos ? text.size() : offset;
}

CsvTable::Options tableOptions(const DatasetOptions& o)
{
    CsvTable::Quoting quoting = CsvTable::Quoting::Auto;
    try {
        quoting = CsvTable::quotingFromName(o.quoting);
    } catch (const DataError&) {
        // The load reports the setting.
    }
    return {o.delimiter, o.header, quoting};
}

void setTable(CsvPreview& p, const CsvTable& table, int maxRows)
{
    p.tableRead = true;
    p.delimiter = table.delimiter;
    p.hasHeader = table.hasHeader;
    p.quoted = table.quoted;
    p.columns = table.columns;
    const auto shown = std::min<std::size_t>(table.rows.size(), static_cast<std::size_t>(std::max(0, maxRows)));
    p.rows.assign(table.rows.begin(), table.rows.begin() + static_cast<long>(shown));
    p.rowLines.assign(table.lines.begin(), table.lines.begin() + static_cast<long>(shown));
    p.textColumns.assign(table.columns.size(), false);
    for (std::size_t c = 0; c < table.columns.size(); ++c)
        for (const auto& row : table.rows) {
            const auto kind = NumericCell::classify(row[c]);
            if (kind == NumericCell::Kind::Missing) continue;
            p.textColumns[c] = kind == NumericCell::Kind::Text;
            break;
        }
}

int columnOf(const CsvTable& table, const std::string& nameOrNumber)
{
    try {
        return table.columnIndex(nameOrNumber, "column");
    } catch (const DataError&) {
        return -1;
    }
}

void setRoles(CsvPreview& p, const CsvTable& table, const DatasetOptions& o)
{
    p.roles.assign(p.columns.size(), CsvPreview::Role::None);
    if (p.translation()) {
        try {
            const auto [source, target] = CsvPairsReader::columnsOf(table, o);
            p.roles[static_cast<std::size_t>(source)] = CsvPreview::Role::Source;
            p.roles[static_cast<std::size_t>(target)] = CsvPreview::Role::Target;
        } catch (const DataError&) {
            // Fewer than two text columns: the load says so.
        }
        return;
    }
    if (!p.regression()) {
        try {
            const auto [text, label] = CsvTextReader::columnsOf(table, o);
            p.roles[static_cast<std::size_t>(text)] = CsvPreview::Role::Text;
            p.roles[static_cast<std::size_t>(label)] = CsvPreview::Role::Label;
        } catch (const DataError&) {
            // No text column: the load says so.
        }
        return;
    }
    const int target = o.targetColumn.empty() ? -1 : columnOf(table, o.targetColumn);
    for (std::size_t c = 0; c < p.columns.size(); ++c) {
        if (static_cast<int>(c) == target) {
            p.roles[c] = CsvPreview::Role::Target;
            continue;
        }
        bool driver = false;
        if (p.loaded) {
            for (const auto& d : p.drivers)
                driver = driver || d == p.columns[c] || d.rfind(p.columns[c] + "=", 0) == 0;
        } else if (!o.driverColumns.empty()) {
            for (const auto& d : o.driverColumns)
                driver = driver || columnOf(table, d) == static_cast<int>(c);
        } else {
            driver = !p.textColumns[c] || o.categorical == "onehot";
        }
        p.roles[c] = driver ? CsvPreview::Role::Driver : CsvPreview::Role::Ignored;
    }
}

} // namespace

bool CsvPreview::hasError() const
{
    return std::any_of(problems.begin(), problems.end(), [](const Problem& p) { return p.error; });
}

std::vector<std::string> CsvPreview::filesOf(const DatasetOptions& o)
{
    if (!o.sourceFile.empty() || !o.targetFile.empty()) { // csv-pairs' parallel line files
        std::vector<std::string> files;
        for (const auto* f : {&o.sourceFile, &o.targetFile, &o.devSourceFile, &o.devTargetFile, &o.testSourceFile, &o.testTargetFile})
            if (!f->empty()) files.push_back(*f);
        return files;
    }
    if (!o.trainFile.empty())
        return {o.trainFile, o.devFile, o.testFile};
    return {o.file};
}

CsvPreview CsvPreview::of(const std::string& datasetId, const DatasetOptions& options, int maxRows)
{
    CsvPreview p;
    p.datasetId = datasetId;
    const auto paths = filesOf(options);
    const auto tableOpts = tableOptions(options);
    CsvTable first;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        FileFacts facts;
        facts.path = paths[i];
        std::string text;
        if (paths[i].empty() || !readBytes(paths[i], text)) {
            p.files.push_back(facts);
            continue; // the load names the missing file or setting
        }
        facts.lines = nonBlankLines(text);
        if (!options.sourceFile.empty() || !options.targetFile.empty()) { // a line file is no table: a sentence a line
            facts.read = true;
            facts.rows = facts.lines;
            p.files.push_back(facts);
            continue;
        }
        try {
            CsvTable table = CsvTable::parse(text, paths[i], tableOpts);
            facts.read = true;
            facts.rows = static_cast<int>(table.rows.size());
            for (const auto& note : table.notes) {
                add(p.problems, problemOf(note, false, paths));
                if (note.find(": a quoted field starts here and spans ") != std::string::npos) ++facts.quotedSpans;
                // The note past kMaxQuoteNotes: "FILE: K more quoted fields span lines (N in all; ...)".
                if (const auto at = note.find(" more quoted fields span lines ("); at != std::string::npos)
                    facts.quotedSpans = std::atoi(note.c_str() + at + 32);
            }
            if (i == 0) first = std::move(table);
        } catch (const DataError& e) {
            add(p.problems, {e.what(), e.file(), e.line(), true});
            // Show the rows before the line at fault, read the same way.
            if (i == 0 && e.line() > 1) {
                try {
                    first = CsvTable::parse(text.substr(0, lineStart(text, e.line())), paths[i], tableOpts);
                } catch (const DataError&) {
                    first = CsvTable{};
                }
            }
        }
        p.files.push_back(facts);
    }

    try {
        const LoadedDataset data = DatasetCatalog::loadAny(datasetId, options);
        p.loaded = true;
        if (data.translation) {
            p.train = static_cast<std::int64_t>(data.pairs.train.size());
            p.dev = static_cast<std::int64_t>(data.pairs.dev.size());
            p.test = static_cast<std::int64_t>(data.pairs.test.size());
        } else if (data.regression) {
            p.train = static_cast<std::int64_t>(data.series.train.size());
            p.dev = static_cast<std::int64_t>(data.series.dev.size());
            p.test = static_cast<std::int64_t>(data.series.test.size());
            p.drivers = data.series.driverNames;
            p.missingPolicy = data.series.missingPolicy;
            p.missingCells = data.series.missingCells;
            p.missingRows = data.series.missingRows;
        } else {
            p.train = static_cast<std::int64_t>(data.text.train.size());
            p.dev = static_cast<std::int64_t>(data.text.dev.size());
            p.test = static_cast<std::int64_t>(data.text.test.size());
            p.classes = data.text.classNames;
        }
        for (const auto& note : data.notes())
            add(p.problems, problemOf(note, false, paths));
    } catch (const DataError& e) {
        add(p.problems, {e.what(), e.file(), e.line(), true});
    } catch (const std::exception& e) {
        add(p.problems, {e.what(), {}, 0, true});
    }
    std::stable_partition(p.problems.begin(), p.problems.end(), [](const Problem& q) { return q.error; });

    if (!first.columns.empty()) {
        setTable(p, first, maxRows);
        setRoles(p, first, options);
    }
    return p;
}

} // namespace attnlab
