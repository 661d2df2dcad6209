#pragma once
#include "core/config/TrainConfig.h"
#include "core/data/LoadedDataset.h"
#include "core/data/LanguageModelDataset.h"
#include "core/data/SeriesDataset.h"
#include "core/data/TextDataset.h"
#include "core/results/RunSummary.h"
#include "core/platform/CancelToken.h"
#include "core/results/TrainingObserver.h"

namespace attnlab {

// Trains one model on one dataset: random batches, dev evaluation every N steps, best-dev weights kept,
// test accuracy measured at best dev. Reports through the observer; stops before the next batch once
// the token is cancelled. Never throws for training problems: they end up in the summary's status.
class Trainer {
public:
    explicit Trainer(TrainConfig config);
    RunSummary run(const TextDataset& dataset, TrainingObserver& observer, const CancelToken& cancel);
    // Time-series regression: MSE on scaled targets; MAE, RMSE and MAPE on de-normalised ones.
    RunSummary run(const SeriesDataset& dataset, TrainingObserver& observer, const CancelToken& cancel);
    // Translation: an encoder-decoder on sentence pairs, measured by BLEU, chrF, exact match and AER.
    RunSummary run(const TranslationDataset& dataset, TrainingObserver& observer, const CancelToken& cancel);
    RunSummary run(const LanguageModelDataset& dataset, TrainingObserver& observer, const CancelToken& cancel);
    // Whichever of the three the dataset is.
    RunSummary run(const LoadedDataset& dataset, TrainingObserver& observer, const CancelToken& cancel);

private:
    template <typename Dataset>
    RunSummary runTask(const Dataset& dataset, TrainingObserver& observer, const CancelToken& cancel);
    TrainConfig config_;
};

} // namespace attnlab
