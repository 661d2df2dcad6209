#include "core/platform/HostInfo.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>

namespace attnlab {

std::string HostInfo::hostName()
{
    char buffer[256] = {0};
    gethostname(buffer, sizeof buffer - 1);
    return buffer;
}

std::string HostInfo::cpuModel()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0)
            if (auto colon = line.find(':'); colon != std::string::npos)
                return line.substr(line.find_first_not_of(" \t", colon + 1));
    return "";
}

std::string HostInfo::operatingSystem()
{
    utsname u{};
    if (uname(&u) != 0)
        return "";
    return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

} // namespace attnlab
