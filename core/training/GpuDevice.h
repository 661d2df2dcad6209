#pragma once
#include <cstdint>
#include <string>

namespace attnlab {

// One CUDA device as the driver describes it: what the device list and a run's environment show.
struct GpuDevice {
    int index = 0;               // cuda:<index>
    std::string name;            // e.g. "NVIDIA H100 80GB HBM3"
    std::int64_t totalBytes = 0; // device memory
    int capabilityMajor = 0, capabilityMinor = 0;

    std::string id() const { return "cuda:" + std::to_string(index); }
    // "cuda:0 - NVIDIA H100 80GB HBM3, 79.2 GiB"
    std::string label() const;
};

} // namespace attnlab
