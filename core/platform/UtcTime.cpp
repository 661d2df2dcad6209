#include "core/platform/UtcTime.h"

#include <time.h>

namespace attnlab {

std::string UtcTime::format(std::time_t moment, const char* pattern)
{
    std::tm utc{};
    gmtime_r(&moment, &utc);
    char buffer[64];
    const std::size_t n = std::strftime(buffer, sizeof buffer, pattern, &utc);
    return std::string(buffer, n);
}

} // namespace attnlab
