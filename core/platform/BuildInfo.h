#pragma once
#include <string>

namespace attnlab {

// Versions recorded with every run (filled in by CMake at configure time).
class BuildInfo {
public:
    static std::string appVersion();
    static std::string gitHash();
};

} // namespace attnlab
