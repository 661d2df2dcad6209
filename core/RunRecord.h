#pragma once
#include "core/RunStatus.h"

#include <cstdint>
#include <string>

namespace attnlab {

// One row of the runs table as the UI and the CLI see it.
struct RunRecord {
    std::int64_t id = 0;
    std::string name;
    RunStatus status = RunStatus::Running;
    std::string startedAt;   // ISO 8601 UTC
    std::string finishedAt;
    std::string configJson;
    std::uint64_t seed = 0;
    std::string dataset;
    std::string model;
    std::string position;
    std::string appVersion;
    std::string gitHash;
    std::string torchVersion;
    std::string device;
    std::int64_t parameters = 0;
    int steps = 0;
    double seconds = 0.0;
    double bestDevAccuracy = 0.0;
    int bestStep = 0;
    double testAccuracy = 0.0;
    std::string message;
};

} // namespace attnlab
