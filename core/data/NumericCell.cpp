#include "core/data/NumericCell.h"

#include "core/data/Tokenizer.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace attnlab {

std::string NumericCell::trimmed(const std::string& field)
{
    const auto b = field.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = field.find_last_not_of(" \t\r");
    return field.substr(b, e - b + 1);
}

NumericCell::Kind NumericCell::classify(const std::string& field, double* value)
{
    const std::string t = trimmed(field);
    // pandas' default na_values (read_csv), compared without case, plus "?" (the UCI repository's marker).
    static const char* kMissing[] = {"", "na", "n/a", "nan", "-nan", "+nan", "null", "none", "?", "#n/a", "#na",
                                     "<na>", "-1.#ind", "1.#ind", "-1.#qnan", "1.#qnan", "#n/a n/a"};
    const std::string lower = Tokenizer::lowercased(t);
    for (const char* m : kMissing)
        if (lower == m) return Kind::Missing;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size())
        return Kind::Text;
    // strtod also reads "nan(...)" and hexadecimal; a NaN spelled any other way is still no value.
    if (std::isnan(v))
        return Kind::Missing;
    if (std::isinf(v))
        return Kind::NonFinite; // "inf", "-Infinity", or ERANGE overflow (1e999 gives HUGE_VAL)
    if (value) *value = v;      // ERANGE underflow: v is 0 or a denormal, which is what the text means
    return Kind::Number;
}

} // namespace attnlab
