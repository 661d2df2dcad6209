#pragma once
#include "core/config/TrainConfig.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attnlab {

// What is known when a run starts: sent to observers before the first batch.
struct RunInfo {
    TrainConfig config;
    std::string device;        // e.g. "cpu (2 threads)" or "cuda:0 NVIDIA H100"
    std::string torchVersion;
    // Facts of the run's device and LibTorch build (ComputeDevice::environment: torch_build; on a GPU its name,
    // memory, compute capability, driver, CUDA and cuDNN versions; numerics): the store merges them into the
    // run's environment, where `runs show` and the run details list them.
    std::map<std::string, std::string> environment;
    std::int64_t parameters = 0;
    std::string modelSummary;
    // What the trainer changed about the data, for the user (e.g. "3 of 900 training examples truncated to
    // 512 tokens (max_length)"); printed by the CLI before the first batch.
    std::vector<std::string> notes;
};

} // namespace attnlab
