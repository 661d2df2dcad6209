#include "core/platform/AllocatorTuning.h"

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <unistd.h> // environ (glibc declares it with _GNU_SOURCE, which g++ defines)

namespace attnlab {
namespace {

std::string& current()
{
    static std::string state = "glibc defaults";
    return state;
}

bool userTunedMalloc()
{
    for (char** e = environ; e && *e; ++e)
        if (std::strncmp(*e, "MALLOC_", 7) == 0 || std::strncmp(*e, "GLIBC_TUNABLES=", 15) == 0)
            return true;
    return false;
}

} // namespace

std::string AllocatorTuning::applyForTraining()
{
#if defined(__GLIBC__)
    const char* asked = std::getenv("ATTNLAB_MALLOC");
    if (asked && std::strcmp(asked, "default") == 0)
        current() = "glibc defaults (ATTNLAB_MALLOC=default)";
    else if (userTunedMalloc())
        current() = "glibc, as set by the environment (MALLOC_* or GLIBC_TUNABLES)";
    else if (mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes) == 1 && mallopt(M_TRIM_THRESHOLD, kTrimThresholdBytes) == 1)
        current() = "glibc, mmap threshold 1 GiB, trim threshold 256 MiB";
    else
        current() = "glibc defaults (mallopt refused the thresholds)";
#else
    current() = "the C library's defaults (not glibc)";
#endif
    return current();
}

const std::string& AllocatorTuning::state()
{
    return current();
}

} // namespace attnlab
