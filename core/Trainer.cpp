#include "core/Trainer.h"

#include "core/BatchBuilder.h"
#include "core/ComputeDevice.h"
#include "core/Vocabulary.h"
#include "core/WordEmbeddings.h"
#include "core/nn/AdadeltaOptimizer.h"
#include "core/nn/ModelFactory.h"
#include "core/nn/TensorConversions.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <random>

namespace attnlab {
namespace {

struct Evaluation {
    double loss = 0.0;
    double accuracy = 0.0;
};

Evaluation evaluate(SequenceClassifier& model, const std::vector<TensorBatch>& batches)
{
    torch::NoGradGuard noGrad;
    model.eval();
    double lossSum = 0.0;
    int64_t correct = 0, count = 0;
    for (const auto& b : batches) {
        auto logits = model.forward(b.ids, b.mask);
        lossSum += torch::nn::functional::cross_entropy(
                       logits, b.labels, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                       .item<double>();
        correct += logits.argmax(1).eq(b.labels).sum().item<int64_t>();
        count += b.labels.size(0);
    }
    model.train();
    return {count ? lossSum / count : 0.0, count ? static_cast<double>(correct) / count : 0.0};
}

std::vector<TensorBatch> toDevice(const std::vector<Batch>& batches, const torch::Device& device)
{
    std::vector<TensorBatch> out;
    out.reserve(batches.size());
    for (const auto& b : batches)
        out.push_back(TensorBatch::from(b, device));
    return out;
}

// Pre-trained vectors into the model's word table ("embedding.weight", [vocabulary x embeddingDim]) by
// vocabulary id; out-of-vocabulary rows uniform in [-a, a]; frozen tables get no gradient.
std::string usePretrainedEmbeddings(SequenceClassifier& model, const WordEmbeddings& embeddings,
                                    const Vocabulary& vocabulary, const TrainConfig& config)
{
    auto* weight = model.named_parameters().find("embedding.weight");
    if (!weight)
        throw std::runtime_error("model '" + config.model.model + "' has no word table to load embeddings into");
    if (weight->dim() != 2 || weight->size(0) != vocabulary.size() || weight->size(1) != embeddings.dimension())
        throw std::runtime_error("embeddings: the model's word table is " + std::to_string(weight->size(0)) + " x " +
                                 std::to_string(weight->size(1)) + ", the file gives " + std::to_string(embeddings.dimension()) +
                                 "-d vectors for " + std::to_string(vocabulary.size()) + " words");
    std::int64_t found = 0;
    auto rows = embeddings.matrixFor(vocabulary, config.oovRange, config.seed, &found);
    {
        torch::NoGradGuard noGrad;
        weight->copy_(torch::from_blob(rows.data(), {vocabulary.size(), embeddings.dimension()}, torch::kFloat32));
    }
    weight->set_requires_grad(!config.embeddingsFrozen);
    return "embeddings: " + config.embeddingsPath + " (" + std::to_string(embeddings.dimension()) + "-d, " +
           std::to_string(found) + " of " + std::to_string(vocabulary.size() - 1) + " words found, " +
           (config.embeddingsFrozen ? "frozen" : "fine-tuned") + ")";
}

bool isOutOfMemory(const std::string& message)
{
    return message.find("out of memory") != std::string::npos || message.find("bad_alloc") != std::string::npos;
}

} // namespace

Trainer::Trainer(TrainConfig config) : config_(std::move(config)) {}

RunSummary Trainer::run(const TextDataset& dataset, TrainingObserver& observer, const CancelToken& cancel)
{
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };

    RunSummary summary;
    RunInfo info;
    info.config = config_;
    info.torchVersion = ComputeDevice::torchVersion();
    bool startedReported = false;
    auto finish = [&](RunStatus status, std::string message) {
        summary.status = status;
        summary.message = std::move(message);
        summary.seconds = elapsed();
        if (!startedReported) // a run that never started is still recorded, with its reason
            observer.onStarted(info);
        observer.onFinished(summary);
        return summary;
    };

    try {
        if (auto problem = config_.validate(); !problem.empty())
            return finish(RunStatus::Failed, problem);
        if (dataset.train.empty() || dataset.dev.empty())
            return finish(RunStatus::Failed, "dataset '" + dataset.id + "': train and dev splits must not be empty");

        ComputeDevice::setThreads(config_.threads);
        const std::string deviceName = ComputeDevice::resolve(config_.device);
        const torch::Device device(deviceName == "cuda" ? torch::kCUDA : torch::kCPU);
        info.device = summary.device = ComputeDevice::describe(deviceName);
        torch::manual_seed(config_.seed);
        std::mt19937_64 rng(config_.seed);

        const Vocabulary vocabulary = Vocabulary::fromExamples(dataset.train);
        ModelConfig modelConfig = config_.model;
        modelConfig.vocabularySize = static_cast<int>(vocabulary.size());
        modelConfig.numClasses = dataset.numClasses();
        std::unique_ptr<WordEmbeddings> embeddings;
        if (!config_.embeddingsPath.empty()) {
            embeddings = std::make_unique<WordEmbeddings>(WordEmbeddings::load(config_.embeddingsPath));
            if (modelConfig.embeddingDim == 0)
                modelConfig.embeddingDim = embeddings->dimension(); // the file sets the input width
            else if (modelConfig.embeddingDim != embeddings->dimension())
                return finish(RunStatus::Failed, "embedding_dim: " + std::to_string(modelConfig.embeddingDim) +
                                                     " does not match the " + std::to_string(embeddings->dimension()) +
                                                     "-d vectors of " + config_.embeddingsPath);
        }
        info.config.model = modelConfig;
        if (auto problem = modelConfig.validate(); !problem.empty())
            return finish(RunStatus::Failed, problem);

        auto model = ModelFactory::create(modelConfig);
        std::string embeddingsNote;
        if (embeddings)
            embeddingsNote = usePretrainedEmbeddings(*model, *embeddings, vocabulary, config_);
        model->to(device);
        model->train();
        summary.parameters = info.parameters = model->trainableParametersWithoutEmbedding();
        info.modelSummary = model->summary() + (embeddingsNote.empty() ? "" : "; " + embeddingsNote);
        observer.onStarted(info);
        startedReported = true;

        const BatchBuilder trainBatches(dataset.train, vocabulary);
        const auto devBatches = toDevice(BatchBuilder(dataset.dev, vocabulary).evaluationBatches(256), device);
        const auto testBatches = toDevice(BatchBuilder(dataset.test, vocabulary).evaluationBatches(256), device);
        std::vector<std::int64_t> probeIds;
        for (const auto& token : dataset.probeTokens)
            probeIds.push_back(vocabulary.id(token));
        const bool hasProbe = !probeIds.empty();
        const auto probe = TensorBatch::from(BatchBuilder::pad({probeIds}, {}), device);

        std::function<void()> optimizerStep;
        std::unique_ptr<torch::optim::Adam> adam;
        std::unique_ptr<AdadeltaOptimizer> adadelta;
        if (config_.optimizer == "adadelta") {
            adadelta = std::make_unique<AdadeltaOptimizer>(model->parameters(), config_.learningRate, 0.95, 1e-6);
            optimizerStep = [&] { adadelta->step(); };
        } else {
            adam = std::make_unique<torch::optim::Adam>(model->parameters(),
                                                        torch::optim::AdamOptions(config_.learningRate));
            optimizerStep = [&] { adam->step(); };
        }

        std::vector<torch::Tensor> bestWeights;
        double intervalLoss = 0.0;
        int64_t intervalCorrect = 0, intervalCount = 0, intervalSteps = 0;
        RunStatus status = RunStatus::Completed;
        std::string message;

        for (int step = 1; step <= config_.steps; ++step) {
            if (cancel.isCancelled()) {
                status = RunStatus::Cancelled;
                message = "stopped by the user after " + std::to_string(summary.steps) + " steps";
                break;
            }
            const auto batch = TensorBatch::from(trainBatches.randomBatch(rng, config_.batchSize), device);
            auto logits = model->forward(batch.ids, batch.mask);
            auto loss = torch::nn::functional::cross_entropy(logits, batch.labels);
            const double lossValue = loss.item<double>();
            if (!std::isfinite(lossValue)) {
                status = RunStatus::Diverged;
                message = "loss became " + std::string(std::isnan(lossValue) ? "NaN" : "infinite") + " at step " +
                          std::to_string(step);
                break;
            }
            model->zero_grad();
            loss.backward();
            optimizerStep();
            summary.steps = step;

            intervalLoss += lossValue;
            intervalCorrect += logits.argmax(1).eq(batch.labels).sum().item<int64_t>();
            intervalCount += batch.labels.size(0);
            ++intervalSteps;
            observer.onProgress({step, config_.steps, lossValue, elapsed()});

            if (step % config_.logEvery == 0 || step == config_.steps) {
                observer.onMetric({step, "train", "loss", intervalLoss / intervalSteps});
                observer.onMetric({step, "train", "accuracy", static_cast<double>(intervalCorrect) / intervalCount});
                intervalLoss = 0.0;
                intervalCorrect = intervalCount = intervalSteps = 0;
            }
            if (step % config_.evalEvery == 0 || step == config_.steps) {
                const auto dev = evaluate(*model, devBatches);
                observer.onMetric({step, "dev", "loss", dev.loss});
                observer.onMetric({step, "dev", "accuracy", dev.accuracy});
                if (bestWeights.empty() || dev.accuracy > summary.bestDevAccuracy) {
                    summary.bestDevAccuracy = dev.accuracy;
                    summary.bestStep = step;
                    torch::NoGradGuard noGrad;
                    bestWeights.clear();
                    for (const auto& p : model->parameters())
                        bestWeights.push_back(p.detach().clone());
                }
                if (hasProbe) {
                    AttentionSnapshot snapshot;
                    snapshot.step = step;
                    snapshot.tokens = dataset.probeTokens;
                    snapshot.maps = model->attentionOfFirst(probe.ids, probe.mask);
                    if (!snapshot.maps.empty())
                        observer.onAttention(snapshot);
                }
            }
        }

        // Test accuracy at the best dev step (not for cancelled or diverged runs: the user asked to stop,
        // and diverged weights say nothing).
        if (status == RunStatus::Completed && !bestWeights.empty()) {
            {
                torch::NoGradGuard noGrad;
                auto params = model->parameters();
                for (std::size_t i = 0; i < params.size(); ++i)
                    params[i].copy_(bestWeights[i]);
            }
            if (!testBatches.empty()) {
                const auto test = evaluate(*model, testBatches);
                summary.testAccuracy = test.accuracy;
                observer.onMetric({summary.bestStep, "test", "loss", test.loss});
                observer.onMetric({summary.bestStep, "test", "accuracy", test.accuracy});
            }
        }
        return finish(status, message);
    } catch (const std::exception& e) {
        const std::string what = e.what();
        const std::string firstLine = what.substr(0, what.find('\n'));
        if (isOutOfMemory(what))
            return finish(RunStatus::Failed, "out of memory on " + summary.device + " with model " + config_.model.model +
                                                 ", d_model " + std::to_string(config_.model.dModel) + ", batch " +
                                                 std::to_string(config_.batchSize) + ": " + firstLine);
        return finish(RunStatus::Failed, firstLine);
    }
}

} // namespace attnlab
