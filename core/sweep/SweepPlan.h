#pragma once
#include "core/sweep/SweepRun.h"
#include "core/sweep/SweepSpec.h"

#include <set>
#include <string>
#include <vector>

namespace attnlab {

class RunStore;

// A sweep expanded: the Cartesian product of its presets and grid axes (presets outermost, grid keys in
// the spec's order, seeds innermost), each combination checked against the registry. A combination that
// cannot run (a position the model does not take, a regression model on a text dataset, a setting
// TrainConfig::validate refuses) is skipped with its reason rather than failing the whole grid, since
// "every model x every position" is the natural way to write a grid; a combination identical to an
// earlier one is skipped as a duplicate. Unknown ids (a misspelt model) are errors, not skips.
class SweepPlan {
public:
    // Throws std::invalid_argument naming the key and value (unknown dataset/model/position id).
    static SweepPlan expand(const SweepSpec& spec);

    const std::vector<SweepRun>& runs() const { return runs_; }
    const std::vector<SweepSkip>& skipped() const { return skipped_; }
    const SweepSpec& spec() const { return spec_; }
    // "sw-" + 10 hex digits over the runs' keys in order: the same spec gives the same id (and folder).
    const std::string& id() const { return id_; }

    // The stable key of a configuration: SHA-256 of its canonical JSON (keys sorted) without what says
    // where or how a run executes rather than what it is: threads, data_dir, checkpoint_dir, and the
    // embeddings' folder (their file name stays). 12 hex digits.
    static std::string runKey(const TrainConfig& config);
    static std::string runKeyOfJson(const std::string& configJson);
    // Keys of the store's completed runs: what a resumed sweep skips.
    static std::set<std::string> completedKeys(const RunStore& store);
    // The plan's runs whose key is not in `done`.
    std::vector<SweepRun> pending(const std::set<std::string>& done) const;

private:
    SweepSpec spec_;
    std::vector<SweepRun> runs_;
    std::vector<SweepSkip> skipped_;
    std::string id_;
};

} // namespace attnlab
