#include "core/results/DecimalText.h"

#include <cstdio>

namespace attnlab {

std::string fixedDecimals(double value, int decimals)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

} // namespace attnlab
