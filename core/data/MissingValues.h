#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// The missing-value policy of a numeric series (DatasetOptions::missing), applied to columns in time
// order where NaN marks a missing cell:
// - error: the reader stops at the first missing cell (it knows the cell's text; apply() never sees it);
// - drop: every row with a missing cell goes (the series gets shorter: the steps around it become neighbours);
// - ffill: a gap takes the last value before it;
// - interpolate: a gap takes values on the straight line between its neighbours, by row.
// With ffill and interpolate a gap at the start (or, interpolating, the end) takes the nearest value.
class MissingValues {
public:
    enum class Policy { Error, Drop, ForwardFill, Interpolate };
    struct Report {
        std::int64_t cells = 0, rows = 0; // missing cells, and rows with at least one
    };

    // "error" | "drop" | "ffill" | "interpolate"; throws DataError naming the setting otherwise.
    static Policy fromName(const std::string& name);
    static std::string name(Policy policy);
    // One cell of a numeric column: its number, or NaN when it is missing and the policy fills or drops.
    // Throws DataError "FILE:LINE: column 'NAME': ..." for a missing cell under error, a number that is
    // not finite (inf, 1e999) and text.
    static double cellValue(const std::string& field, Policy policy, const std::string& file, int line,
                            const std::string& column);
    // columns[c][r]; lines[r] is row r's line in the file (dropped rows leave both). A column with no value
    // at all is an error naming it (nothing to fill from).
    static Report apply(Policy policy, std::vector<std::vector<double>>& columns, std::vector<int>& lines,
                        const std::vector<std::string>& names, const std::string& file);
    // "FILE: 12 missing cells in 9 rows filled by linear interpolation"; "" when nothing was missing.
    static std::string note(Policy policy, const Report& report, const std::string& file);
};

} // namespace attnlab
