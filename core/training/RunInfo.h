#pragma once
#include "core/config/TrainConfig.h"

#include <cstdint>
#include <string>

namespace attnlab {

// What is known when a run starts: sent to observers before the first batch.
struct RunInfo {
    TrainConfig config;
    std::string device;        // e.g. "cpu (2 threads)" or "cuda:0 NVIDIA H100"
    std::string torchVersion;
    std::int64_t parameters = 0;
    std::string modelSummary;
};

} // namespace attnlab
