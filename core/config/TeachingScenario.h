#pragma once
#include "core/config/TrainPreset.h"

#include <string>
#include <vector>

namespace attnlab {

// A lesson shown by training several presets side by side on the same data and seed (the designer's
// "SAN vs RNN", "Why position matters", ...): resources/scenarios/*.json, compiled in, in file-name order.
struct TeachingScenario {
    std::string id;          // the file name without its order prefix: "san-vs-rnn"
    std::string title;       // "SAN vs RNN"
    std::string description; // what is trained
    std::string lesson;      // what the class should see
    std::vector<const TrainPreset*> presets; // 2-4, each a compiled-in preset
    // The same lesson on real data with the presets docs/RESULTS.md measured (optional: "real_data":
    // {"title", "lesson", "presets"}); empty when the lesson has none.
    std::string realTitle;  // "SAN vs RNN on SST-fine"
    std::string realLesson; // what the class should see there, with the measured numbers
    std::vector<const TrainPreset*> realPresets;
    // What the window opens once every run of the lesson has ended (optional "opens"): "" nothing, or
    // "faithfulness": the Explorer on the lesson's first run, its Faithfulness tab measured; "explorer": the
    // Explorer on the lesson's last run (a translation lesson: the alignment explorer on the model that aligns);
    // "compare": the Compare view over all the lesson's runs.
    std::string opens;

    // Throws std::invalid_argument naming `source` and the key: missing keys, unknown presets, fewer than 2
    // or more than 4 presets.
    static TeachingScenario parse(const std::string& json, const std::string& source);
    static const std::vector<TeachingScenario>& all();
    static const TeachingScenario* find(const std::string& id);
};

} // namespace attnlab
