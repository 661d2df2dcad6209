#pragma once
#include "cli/commands/Command.h"
#include "core/config/DatasetOptions.h"
#include "core/config/TrainConfig.h"
#include "core/data/LoadedDataset.h"
#include "core/results/RepeatStatistics.h"
#include "core/results/RunSummary.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attnlab {

class CliFlags;
class RunStore;
class TerminalProgress;

// attnlab-cli train: a preset, a config file or the defaults, overridden by flags; checked (settings,
// dataset, embeddings, model) before anything is stored; then --repeat runs with seeds S..S+R-1, each
// stored as it trains, reported as it finishes and, with repeats, as mean ± sample std. Ctrl-C stops the
// run in progress (stored as cancelled). Exit code: 0 when every run completed, else the first problem's:
// 130 cancelled, 3 diverged, 1 failed.
class TrainCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "train"

private:
    // What the flags ask for: the first run's config, how its data is loaded, how many seeds.
    struct Plan {
        TrainConfig config;
        DatasetOptions datasetOptions;
        int repeats = 1;
        std::vector<std::string> tags; // --tags: put on every run it stores
        bool keepCheckpoints = true;   // false with --no-checkpoint
    };
    // One finished run of the repeats.
    struct Repeat {
        std::int64_t runId = 0;
        RunSummary summary;
        std::uint64_t seed = 0;
    };

    static Plan planFrom(const CliFlags& flags);
    // The data, with the embeddings and the model checked against it; throws before a run is stored.
    LoadedDataset loadChecked(const Plan& plan);
    std::vector<Repeat> runRepeats(const Plan& plan, const LoadedDataset& data, RunStore& store,
                                   TerminalProgress& progress);
    // The completed runs' figures by JSON key (test_accuracy, ...): the thesis reports repeats as their
    // mean ± sample std.
    static std::map<std::string, RepeatStatistics> repeatStatistics(const std::vector<Repeat>& repeats);
    static void reportRepeats(const Plan& plan, const std::vector<Repeat>& repeats,
                              const std::map<std::string, RepeatStatistics>& statistics, TerminalProgress& progress);
    static int exitCode(const std::vector<Repeat>& repeats);
};

} // namespace attnlab
