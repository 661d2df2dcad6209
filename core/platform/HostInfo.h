#pragma once
#include <string>

namespace attnlab {

// Facts about the machine this process runs on, for a run's environment record (and for telling
// whether a run's owner process could still be alive: only on the host that started it). Linux:
// gethostname, /proc/cpuinfo, uname. Each is "" when the system does not say.
class HostInfo {
public:
    static std::string hostName();
    static std::string cpuModel();        // the first "model name" in /proc/cpuinfo
    static std::string operatingSystem(); // "Linux 6.1.0-18-amd64 x86_64": kernel name, release, machine
};

} // namespace attnlab
