#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/TrainConfig.h"
#include "core/nn/training/TrainingTask.h"
#include "core/results/RunStatus.h"
#include "core/platform/CancelToken.h"
#include "core/results/TrainingObserver.h"

#include <functional>
#include <optional>
#include <vector>
#include <string>

namespace attnlab {

// The training loop shared by every task: optimiser, random batches, divergence check, train metrics every
// logEvery steps, dev evaluation and attention snapshot every evalEvery steps, best-dev weights kept,
// test measured with them. Stops before the next batch once cancelled.
class TrainingLoop {
public:
    struct Outcome {
        RunStatus status = RunStatus::Completed;
        std::string message;
        int steps = 0;
        int bestStep = 0;
        TrainingTask::Evaluation bestDev;
        std::optional<TrainingTask::Evaluation> test;
        bool stoppedEarly = false;
        int capturedGraphs = 0; // CUDA graphs the steps were replayed from (whyNotCaptured)
        std::vector<std::string> notes; // the thread count's changes (ThreadGovernor), for the run's notes
    };
    // Steps the run takes: config.steps, or epochs x batches per epoch when an epoch budget is set.
    static int budget(const TrainConfig& config, std::int64_t trainSize);
    // Why this run's training steps will not be captured as CUDA graphs (CudaGraphStep), or "" when they will:
    // TrainConfig::capturableStep on a GPU, Adam without weight decay, no autocast, a task and model that read
    // nothing from the host.
    static std::string whyNotCaptured(const TrainConfig& config, const TrainingTask& task, bool onCuda);

    // stepsDone (when given) is kept at the steps taken so far, so a run that ends in an exception (the
    // store's disk full, out of memory mid-step) still says how far it got.
    static Outcome run(const TrainConfig& config, TrainingTask& task, TrainingObserver& observer,
                       const CancelToken& cancel, const std::function<double()>& elapsedSeconds,
                       int* stepsDone = nullptr);

private:
    static Outcome countModel(const TrainConfig& config, TrainingTask& task, TrainingObserver& observer,
                              const std::function<double()>& elapsedSeconds);
};

} // namespace attnlab
