#pragma once
// Cells of the plain-text tables the commands print (explain's scores, faithfulness's methods).
#include "core/results/DecimalText.h"

#include <cmath>
#include <string>

namespace attnlab {

// `value` with `decimals` decimals; "-" for NaN (a number that does not apply).
inline std::string fixedCell(double value, int decimals)
{
    if (std::isnan(value))
        return "-";
    return fixedDecimals(value, decimals);
}

// `text` padded with spaces on the right to `width` characters (longer text is left as it is).
inline std::string paddedCell(std::string text, std::size_t width)
{
    if (text.size() < width)
        text.append(width - text.size(), ' ');
    return text;
}

} // namespace attnlab
