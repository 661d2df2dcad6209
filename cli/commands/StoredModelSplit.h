#pragma once
// What the explanation commands (faithfulness, agreement, permutation) share: a stored run's model opened
// from its checkpoint, the sentences of one split of its dataset, and throttled progress on stderr.
#include "cli/CliFlags.h"
#include "cli/TerminalProgress.h"
#include "cli/commands/RunIds.h"
#include "core/data/DatasetCatalog.h"
#include "core/training/ModelExplainer.h"

#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab {

// --split (dev or test, default dev) and --limit (0 = all), checked.
struct SplitChoice {
    std::string split;
    long long limit = 0;

    static SplitChoice from(const CliFlags& flags)
    {
        SplitChoice c{flags.text("--split", "dev"), flags.integer("--limit", 0)};
        if (c.split != "dev" && c.split != "test")
            throw CliUsageError("--split: dev or test, got '" + c.split + "'");
        if (c.limit < 0)
            throw CliUsageError("--limit: the number of sentences (0 = all), got " + flags.text("--limit", ""));
        return c;
    }

    // The split's sentences of the run's dataset, as the run read it, the first `limit` of them.
    std::vector<TextExample> examplesOf(const ModelExplainer& explainer) const
    {
        const TrainConfig& config = explainer.config();
        const TextDataset data = DatasetCatalog::load(config.dataset, config.datasetOptions());
        std::vector<TextExample> examples = split == "dev" ? data.dev : data.test;
        if (limit > 0 && examples.size() > static_cast<std::size_t>(limit))
            examples.resize(static_cast<std::size_t>(limit));
        return examples;
    }
};

// The run's model from its best-dev (else final) checkpoint; an error naming the run when it kept none.
inline std::unique_ptr<ModelExplainer> storedModel(const RunStore& store, std::int64_t runId, const std::string& command)
{
    const RunRecord run = existingRun(store, runId);
    const auto chosen = ModelExplainer::choose(store.checkpoints(runId), run.bestStep);
    if (!chosen)
        throw std::runtime_error("run " + std::to_string(runId) + " kept no weights (it was trained with --no-checkpoint, "
                                 "or did not complete): " + command + " needs its model; train it again");
    return std::make_unique<ModelExplainer>(*chosen);
}

// "<command>: done / total sentences" at most once a second, and at the end.
inline std::function<void(int, int)> sentenceProgress(TerminalProgress& progress, const std::string& command)
{
    auto last = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now() - std::chrono::hours(1));
    return [&progress, command, last](int done, int total) {
        const auto now = std::chrono::steady_clock::now();
        if (done < total && now - *last < std::chrono::seconds(1))
            return;
        *last = now;
        progress.report("progress", command + ": " + std::to_string(done) + " / " + std::to_string(total) + " sentences");
    };
}

} // namespace attnlab
