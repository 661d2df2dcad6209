#include "core/data/MissingValues.h"

#include "core/data/DataError.h"
#include "core/data/NumericCell.h"

#include <cmath>

namespace attnlab {

MissingValues::Policy MissingValues::fromName(const std::string& name)
{
    if (name == "error") return Policy::Error;
    if (name == "drop") return Policy::Drop;
    if (name == "ffill") return Policy::ForwardFill;
    if (name == "interpolate") return Policy::Interpolate;
    throw DataError("missing values", 0, "setting missing values: unknown '" + name + "' (known: error, drop, ffill, interpolate)");
}

std::string MissingValues::name(Policy policy)
{
    switch (policy) {
    case Policy::Error: return "error";
    case Policy::Drop: return "drop";
    case Policy::ForwardFill: return "ffill";
    case Policy::Interpolate: return "interpolate";
    }
    return "error";
}

double MissingValues::cellValue(const std::string& field, Policy policy, const std::string& file, int line,
                                const std::string& column)
{
    double v = 0;
    const std::string where = "column '" + column + "': ";
    switch (NumericCell::classify(field, &v)) {
    case NumericCell::Kind::Number: return v;
    case NumericCell::Kind::Missing:
        if (policy == Policy::Error)
            throw DataError(file, line, where + "missing value '" + NumericCell::trimmed(field) +
                                            "' (set missing values to drop, ffill or interpolate to use the file anyway)");
        return std::nan("");
    case NumericCell::Kind::NonFinite:
        throw DataError(file, line, where + "not a finite number '" + NumericCell::trimmed(field) + "'");
    case NumericCell::Kind::Text: break;
    }
    throw DataError(file, line, where + "value '" + NumericCell::trimmed(field) + "' is not a number");
}

MissingValues::Report MissingValues::apply(Policy policy, std::vector<std::vector<double>>& columns, std::vector<int>& lines,
                                           const std::vector<std::string>& names, const std::string& file)
{
    Report report;
    const std::size_t rows = lines.size();
    std::vector<bool> rowMissing(rows, false);
    for (const auto& column : columns)
        for (std::size_t r = 0; r < rows; ++r)
            if (std::isnan(column[r])) { ++report.cells; rowMissing[r] = true; }
    for (bool m : rowMissing) report.rows += m;
    if (report.cells == 0 || policy == Policy::Error)
        return report;

    if (policy == Policy::Drop) {
        std::size_t kept = 0;
        for (std::size_t r = 0; r < rows; ++r) {
            if (rowMissing[r]) continue;
            for (auto& column : columns) column[kept] = column[r];
            lines[kept++] = lines[r];
        }
        for (auto& column : columns) column.resize(kept);
        lines.resize(kept);
        return report;
    }
    for (std::size_t c = 0; c < columns.size(); ++c) {
        auto& v = columns[c];
        std::size_t first = 0;
        while (first < rows && std::isnan(v[first])) ++first;
        if (first == rows)
            throw DataError(file, 0, "column '" + names[c] + "' has no value at all (every cell is missing)");
        for (std::size_t r = 0; r < first; ++r) v[r] = v[first]; // a leading gap: the nearest value
        std::size_t last = first; // the last row with a value
        for (std::size_t r = first + 1; r < rows; ++r) {
            if (std::isnan(v[r])) continue;
            if (r > last + 1) {
                for (std::size_t g = last + 1; g < r; ++g)
                    v[g] = policy == Policy::ForwardFill
                               ? v[last]
                               : v[last] + (v[r] - v[last]) * static_cast<double>(g - last) / static_cast<double>(r - last);
            }
            last = r;
        }
        for (std::size_t r = last + 1; r < rows; ++r) v[r] = v[last]; // a trailing gap: the nearest value
    }
    return report;
}

std::string MissingValues::note(Policy policy, const Report& report, const std::string& file)
{
    if (report.cells == 0)
        return {};
    const std::string what = std::to_string(report.cells) + (report.cells == 1 ? " missing cell in " : " missing cells in ") +
                             std::to_string(report.rows) + (report.rows == 1 ? " row" : " rows");
    switch (policy) {
    case Policy::Drop: return file + ": " + what + ": " + (report.rows == 1 ? "the row" : "those rows") + " dropped";
    case Policy::ForwardFill: return file + ": " + what + " filled with the last value before them";
    case Policy::Interpolate: return file + ": " + what + " filled by linear interpolation";
    case Policy::Error: break;
    }
    return file + ": " + what;
}

} // namespace attnlab
