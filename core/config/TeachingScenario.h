#pragma once
#include "core/config/TrainPreset.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// A lesson shown by training several presets side by side on the same data and seed (the designer's
// "SAN vs RNN", "Why position matters", ...), or by opening a pretrained language model that trains nothing
// ("explore": "What a real LLM attends to"): resources/scenarios/*.json, compiled in, in file-name order.
struct TeachingScenario {
    // What an exploring lesson opens: the pretrained model's view on a prompt, heads knocked out or not.
    struct Exploration {
        std::string model; // the pretrained model's manifest id: "smollm2-135m"
        std::string view; // one of kViews
        std::string prompt; // read as soon as the model is open
        std::string ablate; // heads knocked out, "L.H, ..." 1-based as the window writes them; "" none
        bool ablateMean = false; // their output replaced by its mean instead of zero
        bool measureCopying = false; // the induction and previous-token scores measured on opening
        static constexpr const char* kViews[] = {"heads", "writing", "lens", "copy",
                                                 "step"}; // the view's tabs, in order
        int viewIndex() const; // into kViews
    };

    std::string id;          // the file name without its order prefix: "san-vs-rnn"
    std::string title;       // "SAN vs RNN"
    std::string description; // what is trained
    std::string lesson;      // what the class should see
    std::vector<const TrainPreset*> presets; // 2-4, each a compiled-in preset; none when the lesson explores
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
    std::optional<Exploration> explore; // set instead of presets: the lesson trains nothing

    // Throws std::invalid_argument naming `source` and the key: missing keys, unknown presets, fewer than 2
    // or more than 4 presets, presets and "explore" both or neither, an unknown view, a malformed head set.
    static TeachingScenario parse(const std::string& json, const std::string& source);
    static const std::vector<TeachingScenario>& all();
    static const TeachingScenario* find(const std::string& id);
};

} // namespace attnlab
