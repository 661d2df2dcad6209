#pragma once
#include <ctime>
#include <string>

namespace attnlab {

// A moment written in UTC by a strftime pattern, safe on any thread (POSIX gmtime_r: std::gmtime shares one
// buffer, and the GUI trains on a worker thread). "" when the result would not fit in 63 characters.
class UtcTime {
public:
    static std::string format(std::time_t moment, const char* pattern);
};

} // namespace attnlab
