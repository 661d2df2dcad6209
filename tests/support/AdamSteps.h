#pragma once
// A task trained in a plain loop, without the trainer: Adam at a fixed rate over the task's own random batches, for
// the suites that then read the model and the task directly (the trainer's loop is tested on its own).
#include "core/nn/training/TrainingTask.h"

#include <random>

namespace attnlab::testing {

inline void trainWithAdam(TrainingTask& task, int steps, int batchSize, double learningRate, std::uint64_t seed = 1)
{
    auto& model = task.module();
    torch::optim::Adam adam(model.parameters(), torch::optim::AdamOptions(learningRate));
    std::mt19937_64 rng(seed);
    model.train();
    for (int s = 0; s < steps; ++s) {
        auto step = task.trainStep(rng, batchSize);
        adam.zero_grad();
        step.loss.backward();
        adam.step();
    }
}

} // namespace attnlab::testing
