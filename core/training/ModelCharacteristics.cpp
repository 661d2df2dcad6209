#include "core/training/ModelCharacteristics.h"

#include "core/config/Registry.h"
#include "core/config/TrainPreset.h"
#include "core/data/BatchBuilder.h"
#include "core/data/Vocabulary.h"
#include "core/nn/TorchCompat.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/Optimizer.h"
#include "core/platform/ProcessMemory.h"
#include "core/training/ComputeDevice.h"

#include <chrono>
#include <random>
#include <stdexcept>

namespace attnlab {
namespace {

ModelConfig fromPreset(const std::string& preset)
{
    const TrainPreset* p = TrainPreset::find(preset);
    if (!p)
        throw std::logic_error("compiled-in preset '" + preset + "' is missing");
    return p->config.model;
}

double mib(std::int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

} // namespace

std::vector<ModelCharacteristics::ThesisModel> ModelCharacteristics::thesisModels(int dModel)
{
    std::vector<ThesisModel> models = {
        {"lstm", "LSTM", fromPreset("table5.3-lstm")},
        {"bilstm", "BiLSTM", fromPreset("table5.3-bilstm")},
        {"cnn", "CNN", fromPreset("table5.3-cnn")},
        {"ssan-rpr", "1-Layer SSAN + RPR", fromPreset("table5.3-ssan-rpr")},
        {"ssan-pe", "1-Layer SSAN + PE", fromPreset("table5.3-ssan-pe")},
        {"ssan2-rpr", "2-Layer SSAN + RPR", fromPreset("table5.3-ssan2-rpr")},
        {"transformer-rpr", "Transformer + RPR", fromPreset("table5.3-transformer-rpr")},
        {"essan-mean", "ESSAN w/o AttnSeqRep", fromPreset("table5.6-essan-sst-fine-mean")},
        {"essan", "ESSAN", fromPreset("table5.6-essan-sst-fine")},
    };
    for (auto& m : models) {
        m.config.dModel = dModel;
        m.config.embeddingDim = 0; // random vectors of width d_model: the timing does not depend on their values
        if (m.config.model == "essan" && dModel % 15 == 0)
            m.config.heads = 15; // Table 5.5 (SST-fine); the preset's 10 is for the 100-d vectors
    }
    return models;
}

ModelCharacteristics::Result ModelCharacteristics::measure(const ModelConfig& model, const TextDataset& dataset,
                                                           const Settings& settings,
                                                           const std::function<void(int, int)>& batchDone)
{
    using Clock = std::chrono::steady_clock;
    if (dataset.train.empty() || dataset.dev.empty())
        throw std::invalid_argument("dataset '" + dataset.id + "': train and dev must not be empty");
    if (settings.epochs < 1 || settings.predictPasses < 0 || settings.batchSize < 1)
        throw std::invalid_argument("epochs >= 1, predict passes >= 0 and batch size >= 1 are needed");
    ComputeDevice::setThreads(settings.threads);
    const std::string deviceName = ComputeDevice::resolve(settings.device);
    const torch::Device device(deviceName);
    torch::manual_seed(settings.seed);

    const Vocabulary vocabulary = Vocabulary::fromExamples(dataset.train);
    ModelConfig config = model;
    config.vocabularySize = static_cast<int>(vocabulary.size());
    config.numClasses = dataset.numClasses();
    if (const ModelSpec* entry = Registry::model(config.model); entry && entry->hasOption("input_length"))
        config.resolveInputLength(dataset.longestExample());
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const BatchBuilder train(dataset.train, vocabulary);
    std::vector<TensorBatch> dev;
    for (const auto& b : BatchBuilder(dataset.dev, vocabulary).evaluationBatches(settings.batchSize))
        dev.push_back(TensorBatch::from(b, device));

    Result r;
    r.memoryKind = "cpu resident set";
    if (device.is_cuda()) {
        torch_compat::resetCudaPeak(device.index());
        r.memoryKind = torch_compat::cudaPeakBytes(device.index()) ? "gpu allocator peak (LibTorch's caching allocator)"
                                                                  : "cpu resident set (this LibTorch cannot say the GPU's peak)";
    }
    r.device = ComputeDevice::describe(deviceName);
    const bool peakReset = ProcessMemory::resetPeak();
    if (!peakReset)
        r.memoryKind += ", process-wide peak (the kernel refused to reset it)";
    r.baselineMemoryMb = mib(ProcessMemory::residentBytes());

    auto network = ModelFactory::create(config);
    network->to(device);
    r.parameters = network->trainableParametersWithoutEmbedding();
    r.summary = network->summary();
    TrainConfig optimizerConfig;
    optimizerConfig.optimizer = "adam";
    optimizerConfig.learningRate = settings.learningRate;
    auto parameters = network->parameters();
    std::vector<torch::Tensor> trainable;
    for (const auto& p : parameters)
        if (p.requires_grad())
            trainable.push_back(p);
    Optimizer optimizer(optimizerConfig, trainable);

    const int perEpoch = static_cast<int>((train.exampleCount() + settings.batchSize - 1) / settings.batchSize);
    r.trainBatches = perEpoch * settings.epochs;
    const int predictPerPass = static_cast<int>(dev.size());
    r.predictBatches = predictPerPass * settings.predictPasses;
    const int total = r.trainBatches + r.predictBatches;
    std::mt19937_64 rng(settings.seed);

    network->train();
    torch::Tensor lossSum = torch::zeros({}, torch::TensorOptions().dtype(torch::kDouble).device(device));
    int lossCount = 0;
    int done = 0;
    const auto trainStart = Clock::now();
    for (int epoch = 0; epoch < settings.epochs; ++epoch) {
        const bool last = epoch + 1 == settings.epochs;
        for (const auto& indices : train.epochBatches(rng, settings.batchSize)) {
            const auto batch = TensorBatch::from(train.batchOf(indices), device);
            network->zero_grad(/*set_to_none=*/false); // as the trainer (docs/BENCHMARKS.md)
            auto loss = torch::nn::functional::cross_entropy(network->forward(batch.ids, batch.mask), batch.labels);
            loss.backward();
            optimizer.step(settings.learningRate);
            if (last) {
                lossSum += loss.detach().to(torch::kDouble); // summed on the device, read once after
                ++lossCount;
            }
            if (batchDone)
                batchDone(++done, total);
        }
    }
    if (device.is_cuda())
        torch::cuda::synchronize(); // the time is the work's, not the queue's
    r.trainSeconds = std::chrono::duration<double>(Clock::now() - trainStart).count();
    r.lastTrainLoss = lossCount ? lossSum.item<double>() / lossCount : 0.0;
    r.peakMemoryMb = mib(ProcessMemory::peakResidentBytes());
    if (device.is_cuda())
        if (const auto peak = torch_compat::cudaPeakBytes(device.index()))
            r.peakMemoryMb = mib(*peak);

    torch::NoGradGuard noGrad;
    network->eval();
    const auto predictStart = Clock::now();
    for (int pass = 0; pass < settings.predictPasses; ++pass) {
        for (const auto& b : dev) {
            // The predictions, on the host: what a caller of "predict" receives.
            const auto predicted = network->forward(b.ids, b.mask).argmax(1).to(torch::kCPU);
            (void)predicted;
            if (batchDone)
                batchDone(++done, total);
        }
    }
    r.predictSeconds = std::chrono::duration<double>(Clock::now() - predictStart).count();
    return r;
}

} // namespace attnlab
