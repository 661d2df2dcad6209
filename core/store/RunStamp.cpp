#include "core/store/RunStamp.h"

#include <cstdint>
#include <ctime>
#include <random>

namespace attnlab {

std::string RunStamp::nowIso()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

std::string RunStamp::randomUuid()
{
    std::random_device device;
    static const char* hex = "0123456789abcdef";
    std::string id;
    for (int word = 0; word < 4; ++word) {
        const std::uint32_t bits = device();
        for (int shift = 28; shift >= 0; shift -= 4)
            id += hex[(bits >> shift) & 0xf];
    }
    return id;
}

} // namespace attnlab
