#pragma once
#include "core/config/PresetExpectation.h"
#include "core/config/TrainConfig.h"

#include <string>
#include <vector>

namespace attnlab {

// A named training configuration: one per thesis experiment (resources/presets/*.json, compiled in), or a
// user's --config file. The JSON is a TrainConfig's plus "description" and "repeats" (runs with seeds
// seed, seed + 1, ...; the thesis reports 5 runs for sentiment, 10 for SML2010) and, for presets whose numbers
// docs/RESULTS.md measured, "expected" (PresetExpectation).
struct TrainPreset {
    std::string name;
    std::string description;
    int repeats = 1;
    PresetExpectation expected; // empty unless the preset says what it reached
    TrainConfig config;

    // Throws std::invalid_argument naming `source` and the key: bad JSON, wrong types, unknown keys.
    static TrainPreset parse(const std::string& json, const std::string& source);
    static TrainPreset fromFile(const std::string& path);
    static const std::vector<TrainPreset>& all(); // the compiled-in presets, sorted by name
    static const TrainPreset* find(const std::string& name);
};

} // namespace attnlab
