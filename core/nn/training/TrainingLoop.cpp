#include "core/nn/training/TrainingLoop.h"

#include "core/config/LearningRateSchedule.h"
#include "core/nn/training/GradientNorms.h"
#include "core/nn/training/Optimizer.h"

#include "core/nn/TorchCompat.h"
#include "core/nn/training/StepStatistics.h"
#include "core/nn/training/ThreadGovernor.h"
#include "core/platform/ProcessInfo.h"

#include "core/nn/training/CudaGraphStep.h"
#include "core/nn/training/ModelCheckpoint.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <thread>

namespace attnlab {
namespace {

// Host waits for the device are errors while one lives (ATTNLAB_CUDA_SYNC_CHECK): off again however the step ends.
struct SynchronisationCheck {
    SynchronisationCheck() { torch_compat::setCudaSynchronisationIsError(true); }
    ~SynchronisationCheck() { torch_compat::setCudaSynchronisationIsError(false); }
    SynchronisationCheck(const SynchronisationCheck&) = delete;
    SynchronisationCheck& operator=(const SynchronisationCheck&) = delete;
};

} // namespace

int TrainingLoop::budget(const TrainConfig& config, std::int64_t trainSize)
{
    if (config.epochs <= 0)
        return config.steps;
    const std::int64_t perEpoch = (trainSize + config.batchSize - 1) / config.batchSize;
    return static_cast<int>(std::max<std::int64_t>(1, perEpoch * config.epochs));
}

std::string TrainingLoop::whyNotCaptured(const TrainConfig& config, const TrainingTask& task, bool onCuda)
{
    if (!config.capturableStep)
        return "capturable_step is off";
    if (!onCuda)
        return "not on a GPU";
    if (!CudaGraphStep::available())
        return "this LibTorch has no CUDA backend (the PyPI flavour has)";
    if (config.optimizer != "adam")
        return "optimizer " + config.optimizer + ": only Adam's step keeps its state on the device";
    if (config.weightDecay > 0.0)
        return "weight_decay: its factor is a host number at each step";
    if (config.amp)
        return "amp: autocast steps are not captured";
    if (!task.capturable())
        return "this task or model reads its batch on the host (translation, regression and pretrained models, and "
               "recurrent encoders of two or more layers in both directions); the text classifiers are captured";
    return {};
}

// A model with nothing to train (the n-gram, estimated when it was built): its one pass over the training split is
// its one step; measured on dev and test once, its counts saved as its checkpoint.
TrainingLoop::Outcome TrainingLoop::countModel(const TrainConfig& config, TrainingTask& task, TrainingObserver& observer,
                                               const std::function<double()>& elapsedSeconds)
{
    Outcome outcome;
    outcome.steps = outcome.bestStep = 1;
    outcome.bestDev = task.evaluate(false);
    for (const auto& [name, value] : outcome.bestDev.metrics)
        observer.onMetric({1, "dev", name, value});
    observer.onProgress({1, 1, outcome.bestDev.metrics.empty() ? 0.0 : outcome.bestDev.metrics.front().second, elapsedSeconds()});
    for (const auto& snapshot : task.attention(1))
        observer.onAttention(snapshot);
    outcome.test = task.testIsDev() ? outcome.bestDev : task.evaluate(true);
    for (const auto& [name, value] : outcome.test->metrics)
        observer.onMetric({1, "test", name, value});
    if (!config.checkpointDir.empty()) {
        try {
            observer.onCheckpoint(ModelCheckpoint::save(task.module(), config, task.checkpointMetadata(), 1, "best"));
        } catch (const std::exception& e) {
            outcome.message = std::string("checkpoint not saved: ") + e.what();
        }
    }
    return outcome;
}

TrainingLoop::Outcome TrainingLoop::run(const TrainConfig& config, TrainingTask& task, TrainingObserver& observer,
                                        const CancelToken& cancel, const std::function<double()>& elapsedSeconds,
                                        int* stepsDone)
{
    auto& model = task.module();
    std::vector<torch::Tensor> trainable;
    for (const auto& p : model.parameters())
        if (p.requires_grad())
            trainable.push_back(p);
    if (trainable.empty())
        return countModel(config, task, observer, elapsedSeconds);
    Optimizer optimizer(config, trainable);
    const int totalSteps = budget(config, task.trainSize());
    const LearningRateSchedule schedule(
        {config.lrSchedule, config.lrDecayEvery, config.lrDecayGamma, config.warmupSteps, totalSteps,
         config.learningRate > 0.0 ? config.minLearningRate / config.learningRate : 0.0});
    const bool scheduled = config.lrSchedule != "constant" || config.warmupSteps > 0;
    const bool onCuda = !trainable.empty() && trainable.front().is_cuda();
    const bool autocast = config.amp && onCuda;
    int evaluationsWithoutGain = 0;

    Outcome outcome;
    std::mt19937_64 rng(config.seed);
    std::vector<torch::Tensor> bestWeights;
    StepStatistics statistics(/*deferReads=*/onCuda);
    // ATTNLAB_CUDA_SYNC_CHECK=1 (tests/gpu): a step between two reads that makes the host wait for the device
    // throws, so the run fails naming the call, instead of running slower unnoticed.
    const char* syncCheckSetting = std::getenv("ATTNLAB_CUDA_SYNC_CHECK");
    const bool syncCheck = onCuda && syncCheckSetting && std::string(syncCheckSetting) == "1";
    double intervalLoss = 0.0, intervalMetric = 0.0, lastLoss = std::nan("");
    int64_t intervalCount = 0, intervalSteps = 0;
    const std::string trainMetric = task.trainMetricName();
    auto diverged = [&](int step, double loss) {
        outcome.status = RunStatus::Diverged;
        outcome.message = "loss became " + std::string(std::isnan(loss) ? "NaN" : "infinite") + " at step " + std::to_string(step);
    };
    // TrainConfig::gradientNorms: the step at each log point measures its gradient before clipping.
    std::optional<GradientNorms> gradientNorms;
    if (config.gradientNorms)
        gradientNorms.emplace(model);
    std::vector<std::pair<std::string, double>> measuredNorms;
    model.train();
    // The whole step as one CUDA graph per batch shape, where it can be (whyNotCaptured): the same operations
    // as the eager step below, in the same order of effect.
    std::optional<CudaGraphStep> captured;
    if (whyNotCaptured(config, task, onCuda).empty())
        captured.emplace(trainable.front().device(), [&](const std::vector<torch::Tensor>& inputs) {
            Optimizer::zeroGradients(trainable); // one launch (the module's zero_grad makes one a parameter)
            auto batch = task.stepOn(inputs);
            (config.l2 > 0.0 ? batch.loss + config.l2 * Optimizer::l2Penalty(trainable) : batch.loss).backward();
            if (config.clipNorm > 0.0)
                Optimizer::clipGradients(trainable, config.clipNorm);
            optimizer.stepAtSetRate();
            return std::vector<torch::Tensor>{batch.loss.detach(), batch.trainMetric};
        });

    // The CPU's thread count, when the configuration leaves it to the lab (threads 0): every core, unless its threads
    // get a core only part of the time (other processes want them) and one thread measures faster (ThreadGovernor), so a laptop
    // whose cores are busy elsewhere trains on one thread instead of waiting at every parallel region's barrier. A count the user set is kept as it is, and so is the count of a
    // deterministic run: sums split over another number of threads differ in their last bits (measured: losses
    // at 1 and 2 threads agree to 1e-8, not exactly), and such a run promises the same bits for its seed.
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::optional<ThreadGovernor> governor;
    if (!onCuda && config.threads == 0 && !config.deterministic && cores > 1) {
        governor.emplace(at::get_num_threads(), ProcessInfo::runnableElsewhere());
        at::set_num_threads(governor->threads());
    }
    using StepClock = std::chrono::steady_clock;

    for (int step = 1; step <= totalSteps; ++step) {
        const auto stepStarted = StepClock::now();
        const double cpuBefore = governor ? ProcessInfo::cpuSeconds() : 0.0;
        if (cancel.isCancelled()) {
            outcome.status = RunStatus::Cancelled;
            outcome.message = "stopped by the user after " + std::to_string(outcome.steps) + " steps";
            break;
        }
        std::optional<SynchronisationCheck> noWaiting; // the step alone: reads, logging and evaluation may wait
        if (syncCheck)
            noWaiting.emplace();
        const double learningRate = config.learningRate * schedule.factor(step);
        const bool logNow = step % config.logEvery == 0 || step == totalSteps;
        const bool evaluateNow = step % config.evalEvery == 0 || step == totalSteps;
        const bool measureGradient = gradientNorms && logNow; // eagerly: a captured step's gradients are clipped in the graph
        if (captured && !measureGradient) {
            auto host = task.drawBatch(rng);
            if (captured->wouldCapture(host.tensors))
                noWaiting.reset(); // warming up and capturing may wait; the replays must not
            optimizer.setLearningRate(learningRate); // before the replay, which reads it on the device
            const auto results = captured->run(host.tensors);
            statistics.add(step, results[0], results[1], host.count); // deferred: a GPU's reads wait for flush()
            outcome.capturedGraphs = captured->graphs();
        } else {
            if (autocast) // bf16 needs no loss scaling, unlike fp16
                torch_compat::setCudaAutocast(true, at::kBFloat16);
            auto batch = task.trainStep(rng, config.batchSize);
            if (autocast)
                torch_compat::setCudaAutocast(false);
            const auto read = statistics.add(step, batch.loss, batch.trainMetric, batch.count);
            if (read && !std::isfinite(*read)) { // read at once on the CPU: stop before the bad step updates anything
                diverged(step, *read);
                break;
            }
            if (read)
                lastLoss = *read;
            model.zero_grad(/*set_to_none=*/false); // zeroing in place: measured ~2x faster for SSAN than re-allocating (docs/BENCHMARKS.md)
            // Thesis eq. 4.1: the reported loss is the task's; the penalty only shapes the gradient.
            (config.l2 > 0.0 ? batch.loss + config.l2 * Optimizer::l2Penalty(trainable) : batch.loss).backward();
            if (measureGradient)
                measuredNorms = gradientNorms->measure();
            if (config.clipNorm > 0.0)
                Optimizer::clipGradients(trainable, config.clipNorm);
            optimizer.step(learningRate); // a capturable Adam sets its rate on the device first
        }
        outcome.steps = step;
        if (stepsDone)
            *stepsDone = step;
        if (governor && governor->record(step, std::chrono::duration<double>(StepClock::now() - stepStarted).count(),
                                         ProcessInfo::cpuSeconds() - cpuBefore))
            at::set_num_threads(governor->threads());

        noWaiting.reset();
        if (logNow || evaluateNow) { // the device is read here, once per interval (StepStatistics)
            const auto interval = statistics.flush();
            if (interval.firstNonFiniteStep > 0) {
                diverged(interval.firstNonFiniteStep, interval.firstNonFiniteLoss);
                break;
            }
            intervalLoss += interval.lossSum;
            intervalMetric += interval.metricSum;
            intervalCount += interval.count;
            intervalSteps += interval.steps;
            if (statistics.deferred() && interval.steps > 0)
                lastLoss = interval.lossSum / interval.steps;
        }
        observer.onProgress({step, totalSteps, lastLoss, elapsedSeconds()});

        if (logNow) {
            if (scheduled)
                observer.onMetric({step, "train", "learning_rate", learningRate});
            // The analyst's other x axes: epochs seen and wall time, at the same steps as the loss.
            const double perEpoch = std::ceil(static_cast<double>(task.trainSize()) / config.batchSize);
            observer.onMetric({step, "train", "epoch", perEpoch > 0 ? step / perEpoch : 0.0});
            observer.onMetric({step, "train", "wall_seconds", elapsedSeconds()});
            observer.onMetric({step, "train", "loss", intervalLoss / intervalSteps});
            if (!trainMetric.empty() && intervalCount > 0)
                observer.onMetric({step, "train", trainMetric, intervalMetric / intervalCount});
            for (const auto& [name, value] : measuredNorms)
                observer.onMetric({step, "train", name, value});
            measuredNorms.clear();
            intervalLoss = intervalMetric = 0.0;
            intervalCount = intervalSteps = 0;
        }
        if (evaluateNow) {
            auto dev = task.evaluate(false);
            model.train();
            for (const auto& [name, value] : dev.metrics)
                observer.onMetric({step, "dev", name, value});
            if (config.gradientNorms) {
                const auto profile = task.gradientByDistance();
                for (std::size_t d = 0; d < profile.size(); ++d)
                    observer.onMetric({step, "dev", "grad_by_distance." + std::to_string(d), profile[d]});
                model.train();
            }
            if (bestWeights.empty() || dev.score > outcome.bestDev.score) {
                outcome.bestDev = dev;
                outcome.bestStep = step;
                torch::NoGradGuard noGrad;
                bestWeights.clear();
                for (const auto& p : model.parameters())
                    bestWeights.push_back(p.detach().clone());
                evaluationsWithoutGain = 0;
            } else {
                ++evaluationsWithoutGain;
            }
            for (const auto& snapshot : task.attention(step))
                observer.onAttention(snapshot);
            model.train();
            if (config.patience > 0 && evaluationsWithoutGain >= config.patience && step < totalSteps) {
                outcome.stoppedEarly = true;
                outcome.message = "stopped early at step " + std::to_string(step) + ": no dev improvement in " +
                                  std::to_string(config.patience) + " evaluations since step " + std::to_string(outcome.bestStep);
                break;
            }
        }
    }

    if (governor)
        outcome.notes = governor->notes();
    if (captured && !captured->failure().empty() && outcome.message.empty())
        outcome.message = "a training step could not be captured as a CUDA graph, so the run trained eagerly from then on (" +
                          std::to_string(outcome.capturedGraphs) + " graphs captured before): " + captured->failure();

    // Test at the best dev step (not for cancelled or diverged runs: the user asked to stop, and diverged
    // weights say nothing).
    if (outcome.status == RunStatus::Completed && !bestWeights.empty()) {
        // The final weights too, where they differ from the best: the explorer shows both.
        if (!config.checkpointDir.empty() && outcome.steps != outcome.bestStep) {
            try {
                observer.onCheckpoint(
                    ModelCheckpoint::save(model, config, task.checkpointMetadata(), outcome.steps, "final"));
            } catch (const std::exception& e) {
                outcome.message = std::string("final weights not saved: ") + e.what();
            }
        }
        {
            torch::NoGradGuard noGrad;
            auto params = model.parameters();
            for (std::size_t i = 0; i < params.size(); ++i)
                params[i].copy_(bestWeights[i]);
        }
        outcome.test = task.testIsDev() ? outcome.bestDev : task.evaluate(true);
        for (const auto& [name, value] : outcome.test->metrics)
            observer.onMetric({outcome.bestStep, "test", name, value});
        if (!config.checkpointDir.empty()) {
            try {
                observer.onCheckpoint(
                    ModelCheckpoint::save(model, config, task.checkpointMetadata(), outcome.bestStep, "best"));
            } catch (const std::exception& e) { // the results stand; say why there is no file
                outcome.message = std::string("checkpoint not saved: ") + e.what();
            }
        }
    }
    return outcome;
}

} // namespace attnlab
