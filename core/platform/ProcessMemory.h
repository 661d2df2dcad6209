#pragma once
#include <cstdint>

namespace attnlab {

// This process' resident memory on Linux (/proc/self/status), for the model-characteristics table's
// "peak memory during training" on CPU. resetPeak() asks the kernel to restart the high-water mark at
// the current resident size (/proc/self/clear_refs "5", Linux 4.0+), so each model measured in one
// process gets its own peak. Values are bytes; 0 when the file cannot be read.
class ProcessMemory {
public:
    static std::int64_t residentBytes();     // VmRSS
    static std::int64_t peakResidentBytes(); // VmHWM
    static bool resetPeak();                 // false when the kernel refused (the peak then spans the process)
    static std::int64_t availableBytes();    // the system's MemAvailable (/proc/meminfo): what can be taken without swapping
};

} // namespace attnlab
