#include "core/data/readers/CsvSeriesReader.h"

#include "core/data/CsvTable.h"
#include "core/data/DataError.h"
#include "core/data/MissingValues.h"
#include "core/data/NumericCell.h"
#include "core/data/SeriesWindowBuilder.h"

#include <algorithm>
#include <set>

namespace attnlab {
namespace {

// A column as the series will use it: numbers (missing cells NaN until the policy fills them), or a
// text column spread into one 0/1 column per category.
struct UsedColumn {
    int index = 0;
    std::vector<std::string> categories; // empty: numeric
};

// The first row whose cell is not missing, or rows when every cell is.
std::size_t firstValueRow(const CsvTable& table, int column)
{
    for (std::size_t r = 0; r < table.rows.size(); ++r)
        if (NumericCell::classify(table.rows[r][static_cast<std::size_t>(column)]) != NumericCell::Kind::Missing)
            return r;
    return table.rows.size();
}

bool isText(const CsvTable& table, int column, std::size_t row)
{
    return row < table.rows.size() &&
           NumericCell::classify(table.rows[row][static_cast<std::size_t>(column)]) == NumericCell::Kind::Text;
}

std::vector<std::string> categoriesOf(const CsvTable& table, int column)
{
    std::set<std::string> values;
    for (const auto& row : table.rows) {
        const std::string& cell = row[static_cast<std::size_t>(column)];
        if (NumericCell::classify(cell) != NumericCell::Kind::Missing)
            values.insert(NumericCell::trimmed(cell));
    }
    return {values.begin(), values.end()}; // sorted: the encoding does not depend on the row order
}

} // namespace

SeriesDataset CsvSeriesReader::read(const DatasetOptions& o)
{
    if (o.file.empty())
        throw DataError("csv-series", 0, "setting file: give a CSV/TSV file of numeric series");
    const MissingValues::Policy policy = MissingValues::fromName(o.missing);
    if (o.categorical != "skip" && o.categorical != "onehot")
        throw DataError(o.file, 0, "setting categorical: unknown '" + o.categorical + "' (known: skip, onehot)");
    const bool onehot = o.categorical == "onehot";
    const CsvTable table = CsvTable::read(o.file, {o.delimiter, o.header, CsvTable::quotingFromName(o.quoting)});
    if (o.targetColumn.empty())
        throw DataError(o.file, 0, "setting target column: name the column to predict");
    const int target = table.columnIndex(o.targetColumn, "target column");
    auto nameOf = [&](int c) { return table.columns[static_cast<std::size_t>(c)]; };
    auto cellOf = [&](std::size_t r, int c) { return NumericCell::trimmed(table.rows[r][static_cast<std::size_t>(c)]); };
    std::vector<std::string> notes = table.notes;

    if (const auto r = firstValueRow(table, target); isText(table, target, r))
        throw DataError(o.file, table.lines[r], "column '" + nameOf(target) + "' (the target): value '" + cellOf(r, target) +
                                                    "' is not a number");
    std::vector<UsedColumn> drivers;
    auto categorical = [&](int c, std::size_t r, bool named) {
        if (onehot) {
            auto categories = categoriesOf(table, c);
            if (static_cast<int>(categories.size()) <= kMaxCategories) {
                drivers.push_back({c, std::move(categories)});
                return;
            }
            if (named)
                throw DataError(o.file, 0, "column '" + nameOf(c) + "': " + std::to_string(categories.size()) +
                                               " distinct values, too many to one-hot encode (at most " +
                                               std::to_string(kMaxCategories) + ")");
            notes.push_back(o.file + ": column '" + nameOf(c) + "' skipped: text with " + std::to_string(categories.size()) +
                            " distinct values, too many to one-hot encode (first at line " + std::to_string(table.lines[r]) + ": '" +
                            cellOf(r, c) + "')");
            return;
        }
        if (named)
            throw DataError(o.file, table.lines[r], "column '" + nameOf(c) + "' (a driver) holds text, not numbers: value '" +
                                                        cellOf(r, c) + "' (leave it out of the drivers, or set categorical onehot)");
        notes.push_back(o.file + ": column '" + nameOf(c) + "' skipped: not numeric (first at line " +
                        std::to_string(table.lines[r]) + ": '" + cellOf(r, c) + "'; categorical onehot encodes it)");
    };
    if (!o.driverColumns.empty()) {
        for (const auto& name : o.driverColumns) {
            const int c = table.columnIndex(name, "driver columns");
            const auto r = firstValueRow(table, c);
            if (isText(table, c, r)) categorical(c, r, true);
            else drivers.push_back({c, {}});
        }
    } else {
        for (int c = 0; c < static_cast<int>(table.columns.size()); ++c) {
            if (c == target) continue;
            const auto r = firstValueRow(table, c);
            if (r == table.rows.size())
                notes.push_back(o.file + ": column '" + nameOf(c) + "' skipped: every cell is missing");
            else if (isText(table, c, r)) categorical(c, r, false);
            else drivers.push_back({c, {}});
        }
    }

    // columns[0] is the target, then one column per driver series (a one-hot column per category).
    std::vector<std::vector<double>> columns(1);
    std::vector<std::string> names = {nameOf(target)};
    for (const auto& d : drivers) {
        if (d.categories.empty()) {
            columns.emplace_back();
            names.push_back(nameOf(d.index));
        }
        for (const auto& category : d.categories) {
            columns.emplace_back();
            names.push_back(nameOf(d.index) + "=" + category);
        }
    }
    for (auto& c : columns) c.reserve(table.rows.size());
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const int line = table.lines[r];
        columns[0].push_back(MissingValues::cellValue(table.rows[r][static_cast<std::size_t>(target)], policy, o.file, line, nameOf(target)));
        std::size_t next = 1;
        for (const auto& d : drivers) {
            const std::string& cell = table.rows[r][static_cast<std::size_t>(d.index)];
            if (d.categories.empty()) {
                columns[next++].push_back(MissingValues::cellValue(cell, policy, o.file, line, nameOf(d.index)));
                continue;
            }
            // A missing category is no category: every one of its columns 0.
            const std::string value = NumericCell::classify(cell) == NumericCell::Kind::Missing ? std::string() : NumericCell::trimmed(cell);
            for (const auto& category : d.categories) columns[next++].push_back(value == category ? 1.0 : 0.0);
        }
    }
    std::vector<int> lines = table.lines;
    const auto report = MissingValues::apply(policy, columns, lines, names, o.file);
    if (auto note = MissingValues::note(policy, report, o.file); !note.empty())
        notes.push_back(note);

    SeriesWindowBuilder::Input in;
    in.id = "csv-series";
    in.name = "Series from " + o.file;
    in.source = o.file;
    in.window = o.window;
    in.horizon = o.horizon;
    in.scaleTop = o.scaleTop;
    in.targetName = names[0];
    in.driverNames.assign(names.begin() + 1, names.end());
    in.target = columns[0];
    in.drivers.assign(lines.size(), std::vector<double>(columns.size() - 1));
    for (std::size_t r = 0; r < lines.size(); ++r)
        for (std::size_t c = 1; c < columns.size(); ++c) in.drivers[r][c - 1] = columns[c][r];
    const int rows = static_cast<int>(in.target.size());
    if (!(o.trainFraction > 0 && o.devFraction > 0 && o.trainFraction + o.devFraction < 1))
        throw DataError(o.file, 0, "setting split fractions: train and dev must be positive and leave room for test");
    in.trainRows = static_cast<int>(rows * o.trainFraction);
    in.devRows = std::max(1, static_cast<int>(rows * o.devFraction));
    SeriesDataset d = SeriesWindowBuilder::build(in);
    d.missingPolicy = MissingValues::name(policy);
    d.missingCells = report.cells;
    d.missingRows = report.rows;
    d.notes = std::move(notes);
    return d;
}

} // namespace attnlab
