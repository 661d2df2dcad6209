#pragma once
#include "core/config/TrainConfig.h"
#include "core/results/ModelExplanation.h"
#include "core/store/RunRecord.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// A trained sentence classifier loaded back from its checkpoint (ModelCheckpoint: weights, vocabulary,
// classes and tokenizer in one file) to answer "what does it make of this sentence?". Only a file the
// store recorded is opened, and only when its sha256 still matches. Used by `attnlab-cli explain` and
// the window's explorer; explain() may be called from any thread (one call at a time inside).
class ModelExplainer {
public:
    // Throws std::runtime_error naming the file: gone, altered, not a checkpoint, or a time-series model
    // (which is explained by its stored snapshots, not by typed text).
    explicit ModelExplainer(const CheckpointRef& checkpoint);
    ~ModelExplainer();
    ModelExplainer(const ModelExplainer&) = delete;
    ModelExplainer& operator=(const ModelExplainer&) = delete;

    ModelExplanation explain(const std::string& text) const;

    const TrainConfig& config() const;   // the run's configuration, the model's sizes filled in
    const std::vector<std::string>& classNames() const;
    std::string weights() const;         // "best" | "final"
    int step() const;

    // Which of a run's checkpoints to use: the one saved at `step` when given (nothing when no weights of
    // that step were kept), else the best-dev one (the step the run reported, `bestStep`), else the last.
    static std::optional<CheckpointRef> choose(const std::vector<CheckpointRef>& checkpoints, int bestStep,
                                               std::optional<int> step = std::nullopt);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
