#pragma once
#include <string>

namespace attnlab {

// How one cell of a numeric series reads. Four kinds, because each is handled differently:
// - a finite number;
// - a missing value: an empty cell or a marker spreadsheets and pandas write for "no value" (NA, N/A, NaN,
//   null, None, ?, ...). NaN counts as missing because numeric exports (numpy, R, MATLAB) write it for a
//   cell that has no measurement; the missing-value policy (MissingValues) decides what becomes of it;
// - a number that is not finite: inf, -inf, Infinity, or one out of double's range (1e999). Never
//   "missing": it is a value the models cannot use, so it is an error naming file and line;
// - text (a category such as a weekday, a date, or a typo).
class NumericCell {
public:
    enum class Kind { Number, Missing, NonFinite, Text };
    // value is set for Number only. Surrounding blanks are ignored; a number that underflows (1e-999) reads
    // as the nearest double (0), as spreadsheets read it.
    static Kind classify(const std::string& field, double* value = nullptr);
    static std::string trimmed(const std::string& field);
};

} // namespace attnlab
