#pragma once
#include "core/config/TrainConfig.h"

#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// One run of an expanded sweep: its full configuration and its stable key (SweepPlan::runKey), which is
// how a resumed sweep recognises a run already completed in the store, whoever trained it.
struct SweepRun {
    int index = 0;       // position in the plan, 0-based; names its files in the sweep folder (run-<index>.json)
    std::string key;     // 12 hex digits of the canonical configuration's SHA-256
    std::string preset;  // "" without presets
    std::vector<std::pair<std::string, std::string>> settings; // the grid's values for this run (key, JSON), seed last
    TrainConfig config;

    // "sst-fine ssan/rpr seed 1 lr=0.01": what the progress lines and the dry run show.
    std::string label() const;
};

// A combination the grid names that cannot run, and why (e.g. a position technique the model does not take).
struct SweepSkip {
    std::string label;
    std::string reason;
};

} // namespace attnlab
