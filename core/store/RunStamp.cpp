#include "core/store/RunStamp.h"
#include "core/platform/UtcTime.h"

#include <cstdint>
#include <ctime>
#include <random>

namespace attnlab {

std::string RunStamp::nowIso()
{
    const std::time_t t = std::time(nullptr);
    return UtcTime::format(t, "%Y-%m-%dT%H:%M:%SZ");
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
