#include "core/platform/UserFolders.h"

#include <cstdlib>

namespace attnlab {
namespace {

std::string folder(const char* variable, const char* underHome)
{
    if (const char* set = std::getenv(variable); set && *set)
        return set;
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + underHome;
    return "";
}

} // namespace

std::string UserFolders::data() { return folder("XDG_DATA_HOME", "/.local/share"); }

std::string UserFolders::cache() { return folder("XDG_CACHE_HOME", "/.cache"); }

} // namespace attnlab
