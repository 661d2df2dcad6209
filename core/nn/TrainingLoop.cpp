#include "core/nn/TrainingLoop.h"

#include "core/nn/AdadeltaOptimizer.h"

#include <cmath>

namespace attnlab {

TrainingLoop::Outcome TrainingLoop::run(const TrainConfig& config, TrainingTask& task, TrainingObserver& observer,
                                        const CancelToken& cancel, const std::function<double()>& elapsedSeconds)
{
    auto& model = task.module();
    std::vector<torch::Tensor> trainable;
    for (const auto& p : model.parameters())
        if (p.requires_grad())
            trainable.push_back(p);
    std::function<void()> optimizerStep;
    std::unique_ptr<torch::optim::Adam> adam;
    std::unique_ptr<AdadeltaOptimizer> adadelta;
    if (config.optimizer == "adadelta") {
        adadelta = std::make_unique<AdadeltaOptimizer>(trainable, config.learningRate, 0.95, 1e-6);
        optimizerStep = [&] { adadelta->step(); };
    } else {
        adam = std::make_unique<torch::optim::Adam>(trainable, torch::optim::AdamOptions(config.learningRate));
        optimizerStep = [&] { adam->step(); };
    }

    Outcome outcome;
    std::mt19937_64 rng(config.seed);
    std::vector<torch::Tensor> bestWeights;
    double intervalLoss = 0.0, intervalMetric = 0.0;
    int64_t intervalCount = 0, intervalSteps = 0;
    const std::string trainMetric = task.trainMetricName();
    model.train();

    for (int step = 1; step <= config.steps; ++step) {
        if (cancel.isCancelled()) {
            outcome.status = RunStatus::Cancelled;
            outcome.message = "stopped by the user after " + std::to_string(outcome.steps) + " steps";
            break;
        }
        auto batch = task.trainStep(rng, config.batchSize);
        const double lossValue = batch.loss.item<double>();
        if (!std::isfinite(lossValue)) {
            outcome.status = RunStatus::Diverged;
            outcome.message = "loss became " + std::string(std::isnan(lossValue) ? "NaN" : "infinite") + " at step " +
                              std::to_string(step);
            break;
        }
        model.zero_grad();
        batch.loss.backward();
        optimizerStep();
        outcome.steps = step;

        intervalLoss += lossValue;
        intervalMetric += batch.trainMetric;
        intervalCount += batch.count;
        ++intervalSteps;
        observer.onProgress({step, config.steps, lossValue, elapsedSeconds()});

        if (step % config.logEvery == 0 || step == config.steps) {
            observer.onMetric({step, "train", "loss", intervalLoss / intervalSteps});
            if (!trainMetric.empty() && intervalCount > 0)
                observer.onMetric({step, "train", trainMetric, intervalMetric / intervalCount});
            intervalLoss = intervalMetric = 0.0;
            intervalCount = intervalSteps = 0;
        }
        if (step % config.evalEvery == 0 || step == config.steps) {
            auto dev = task.evaluate(false);
            model.train();
            for (const auto& [name, value] : dev.metrics)
                observer.onMetric({step, "dev", name, value});
            if (bestWeights.empty() || dev.score > outcome.bestDev.score) {
                outcome.bestDev = dev;
                outcome.bestStep = step;
                torch::NoGradGuard noGrad;
                bestWeights.clear();
                for (const auto& p : model.parameters())
                    bestWeights.push_back(p.detach().clone());
            }
            if (auto snapshot = task.attention(step))
                observer.onAttention(*snapshot);
            model.train();
        }
    }

    // Test at the best dev step (not for cancelled or diverged runs: the user asked to stop, and diverged
    // weights say nothing).
    if (outcome.status == RunStatus::Completed && !bestWeights.empty()) {
        {
            torch::NoGradGuard noGrad;
            auto params = model.parameters();
            for (std::size_t i = 0; i < params.size(); ++i)
                params[i].copy_(bestWeights[i]);
        }
        outcome.test = task.evaluate(true);
        for (const auto& [name, value] : outcome.test->metrics)
            observer.onMetric({outcome.bestStep, "test", name, value});
    }
    return outcome;
}

} // namespace attnlab
