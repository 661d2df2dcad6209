#pragma once
// A benchmark's "--name value" option, or the fallback when it is not given.
#include <cstring>
#include <string>

namespace attnlab::bench {

inline std::string option(int argc, char** argv, const char* name, const std::string& fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return fallback;
}

} // namespace attnlab::bench
