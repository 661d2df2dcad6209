#pragma once
#include "core/RunStatus.h"

#include <cstdint>
#include <string>

namespace attnlab {

// How a run ended.
struct RunSummary {
    RunStatus status = RunStatus::Completed;
    int steps = 0;
    double seconds = 0.0;
    double bestDevAccuracy = 0.0;
    int bestStep = 0;
    double testAccuracy = 0.0;  // measured with the best-dev weights
    std::int64_t parameters = 0;
    std::string device;
    std::string message;        // why it failed or diverged
};

} // namespace attnlab
