#pragma once
#include "core/CancelToken.h"
#include "core/RunSummary.h"
#include "core/TextDataset.h"
#include "core/TrainConfig.h"
#include "core/TrainingObserver.h"

namespace attnlab {

// Trains one model on one dataset: random batches, dev evaluation every N steps, best-dev weights kept,
// test accuracy measured at best dev. Reports through the observer; stops before the next batch once
// the token is cancelled. Never throws for training problems: they end up in the summary's status.
class Trainer {
public:
    explicit Trainer(TrainConfig config);
    RunSummary run(const TextDataset& dataset, TrainingObserver& observer, const CancelToken& cancel);

private:
    TrainConfig config_;
};

} // namespace attnlab
