#pragma once
// Run ids as the runs subcommands read them from the command line (RunsCommand, RunsPlotCommand).
#include "cli/CliFlags.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace attnlab {

// A positive integer, or a CliUsageError that quotes the text.
inline std::int64_t runIdFrom(const std::string& text)
{
    std::size_t used = 0;
    long long id = 0;
    try {
        id = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (text.empty() || used != text.size() || id <= 0)
        throw CliUsageError("a run id is a positive integer, got '" + text + "'");
    return id;
}

// The stored run, or an error naming the store and how to list its ids.
inline RunRecord existingRun(const RunStore& store, std::int64_t id)
{
    auto record = store.run(id);
    if (!record)
        throw std::runtime_error("run store " + store.path() + ": no run " + std::to_string(id) +
                                 " (attnlab-cli runs list shows the ids)");
    return *record;
}

// The weights a command runs a stored run with (ModelExplainer::choose: the best-dev ones, or those of --step),
// or an error saying why there are none and what to do ("translate with it", "write with it").
inline CheckpointRef keptWeights(const RunStore& store, const RunRecord& run, std::optional<int> step, const std::string& toDo)
{
    const auto chosen = ModelExplainer::choose(store.checkpoints(run.id), run.bestStep, step);
    if (!chosen)
        throw std::runtime_error("run " + std::to_string(run.id) + " kept no weights" + (step ? " of step " + std::to_string(*step) : std::string()) +
                                 " (trained with --no-checkpoint, or it did not complete): train it again to " + toDo);
    return *chosen;
}

} // namespace attnlab
