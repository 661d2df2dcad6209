#include "core/platform/ProcessMemory.h"

#include <fstream>
#include <sstream>
#include <string>

namespace attnlab {
namespace {

// "VmRSS:   123456 kB" -> bytes.
std::int64_t statusField(const std::string& field)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(field + ":", 0) != 0)
            continue;
        std::istringstream values(line.substr(field.size() + 1));
        std::int64_t kib = 0;
        values >> kib;
        return kib * 1024;
    }
    return 0;
}

} // namespace

std::int64_t ProcessMemory::residentBytes() { return statusField("VmRSS"); }

std::int64_t ProcessMemory::peakResidentBytes() { return statusField("VmHWM"); }

std::int64_t ProcessMemory::availableBytes()
{
    std::ifstream in("/proc/meminfo");
    std::string name;
    std::int64_t kib = 0;
    std::string unit;
    while (in >> name >> kib) {
        std::getline(in, unit);
        if (name == "MemAvailable:")
            return kib * 1024;
    }
    return 0;
}

bool ProcessMemory::resetPeak()
{
    std::ofstream out("/proc/self/clear_refs");
    if (!out)
        return false;
    out << "5";
    out.flush();
    return static_cast<bool>(out);
}

} // namespace attnlab
