#include "core/platform/ExecutablePath.h"

#include <unistd.h>

#include <climits>

namespace attnlab {

std::string ExecutablePath::current()
{
    char buffer[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

std::string ExecutablePath::folder()
{
    const std::string path = current();
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

} // namespace attnlab
