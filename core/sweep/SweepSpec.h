#pragma once
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// What a sweep is before it is expanded: a grid over TrainConfig keys (and over presets), written as
// JSON (docs: README, "sweep"):
//   {"name": "table-5.3", "presets": ["table5.3-lstm", ...], "base": {"steps": 2000},
//    "grid": {"dataset": ["sst-fine", "opener"], "model": ["ssan", "lstm"], "position": ["none", "rpr"]},
//    "repeats": 5}
// "presets" (optional) is the outermost axis; "base" sets single values on top of each preset (or of the
// defaults); "grid" keys are TrainConfig JSON keys (TrainConfig::toJson), each with a list of values,
// the first key varying slowest; "repeats" R gives seeds seed..seed+R-1 unless "seed" is a grid key
// (then it is an error to give both). Values are kept as JSON text so this header stays plain C++.
class SweepSpec {
public:
    std::string name;                 // for people; the sweep id is computed from the runs (SweepPlan)
    std::vector<std::string> presets; // compiled-in preset names; empty = start from TrainConfig defaults
    std::string baseJson = "{}";      // an object of TrainConfig keys
    std::vector<std::pair<std::string, std::vector<std::string>>> axes; // key -> JSON values, in file order
    int repeats = 0;                  // 0 = the preset's own repeats (1 without a preset)

    // Throws std::invalid_argument, one line naming `source` and the key, with a hint: bad JSON, an
    // unknown key, a value of the wrong type, an unknown preset, an empty list.
    static SweepSpec parse(const std::string& json, const std::string& source);
    static SweepSpec fromFile(const std::string& path);

    // An axis from a command line's comma list ("lr" values "0.1,0.01"): each item typed as the key's
    // default value in TrainConfig (number, boolean or text). Replaces an axis with that key. Throws
    // std::invalid_argument naming the key.
    void setAxisFromText(const std::string& key, const std::string& commaList);
    // One base value from text, typed the same way.
    void setBaseFromText(const std::string& key, const std::string& value);
    void setPresets(const std::vector<std::string>& names); // throws on an unknown name

    std::string toJson() const; // the canonical spec (stored in the sweep folder)
};

} // namespace attnlab
