#include "core/training/Trainer.h"

#include "core/config/Registry.h"
#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/OwnDataFiles.h"
#include "core/data/Tokenizer.h"
#include "core/data/Vocabulary.h"
#include "core/data/WordEmbeddings.h"
#include "core/data/pretrained/BertConfig.h"
#include "core/data/pretrained/SafetensorsFile.h"
#include "core/data/pretrained/WordPieceTokenizer.h"
#include "core/nn/models/BertClassifier.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ClassificationTask.h"
#include "core/nn/training/RegressionTask.h"
#include "core/nn/models/NgramModel.h"
#include "core/nn/training/LanguageModelTask.h"
#include "core/nn/training/TranslationTask.h"
#include "core/results/BleuScore.h"
#include "core/results/ChrfScore.h"
#include "core/nn/training/TrainingLoop.h"
#include "core/training/ComputeDevice.h"
#include "core/training/PretrainedEncoder.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>

namespace attnlab {
namespace {

// Pre-trained vectors into the model's word table ("embedding.weight", [vocabulary x embeddingDim]) by
// vocabulary id; out-of-vocabulary rows uniform in [-a, a]; frozen tables get no gradient.
std::string usePretrainedEmbeddings(SequenceClassifier& model, const WordEmbeddings& embeddings,
                                    const Vocabulary& vocabulary, const TrainConfig& config)
{
    // named_parameters() returns its dictionary by value: keep it alive while `weight` points into it (a
    // pointer into the temporary was a use-after-free that crashed one start in a few under load).
    const auto parameters = model.named_parameters();
    const torch::Tensor* weight = parameters.find("embedding.weight");
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

// ATTNLAB_MAX_STEPS=N caps every run at N training steps, whatever its steps or epochs say, and its dev and test
// evaluations at kSmokeExamples examples each: the smoke test of every preset and lesson (tests/ui/
// test_every_lesson) starts them as the window and `train --preset` do, in seconds, evaluation included (a
// pretrained encoder over all of SST's dev and test took 20 s). The stored configuration says the steps it
// trained, and the run's notes say both caps: such a run's numbers are no result. 0 or unset: no cap.
constexpr std::size_t kSmokeExamples = 200;
int stepCap()
{
    const char* set = std::getenv("ATTNLAB_MAX_STEPS");
    if (!set || !*set)
        return 0;
    char* end = nullptr;
    const long cap = std::strtol(set, &end, 10);
    return (*end == '\0' && cap > 0 && cap < 1000000000) ? static_cast<int>(cap) : 0;
}

// How a run computes beyond the seed, as the device text and the environment store it: "" on the CPU
// unless deterministic, else e.g. "fp32, no TF32" or "bf16 autocast, TF32 matmul, deterministic".
std::string numericsNote(const TrainConfig& config, const torch::Device& device)
{
    if (!device.is_cuda())
        return config.deterministic ? "deterministic" : "";
    std::string note = config.amp ? "bf16 autocast" : "fp32";
    note += config.tf32 ? ", TF32 matmul" : ", no TF32";
    if (config.deterministic)
        note += ", deterministic";
    return note;
}

// Process-wide LibTorch switches a run asks for (runs sharing a process share them: the window trains one
// CUDA run at a time, sweeps run each in its own process).
void applyNumerics(const TrainConfig& config, const torch::Device& device)
{
    if (device.is_cuda()) {
        at::globalContext().setAllowTF32CuBLAS(config.tf32);
        at::globalContext().setAllowTF32CuDNN(config.tf32);
        // cuDNN's autotuner times every candidate kernel once for each new input shape: a cost per shape for
        // batches of any length, which the lab's are. Off unless ATTNLAB_CUDNN_BENCHMARK=1: on an H100 the CNN's 10
        // epochs of SST-fine took 23.2 s eager with it and 15.7 s without, 5.4 and 3.7 s captured (docs/BENCHMARKS.md).
        const char* tune = std::getenv("ATTNLAB_CUDNN_BENCHMARK");
        at::globalContext().setBenchmarkCuDNN(tune && std::string(tune) == "1" && !config.deterministic);
    }
    if (config.deterministic) // cuBLAS is reproducible only with a fixed workspace, set before its first use
        setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", /*overwrite=*/0);
    at::globalContext().setDeterministicCuDNN(config.deterministic);
    at::globalContext().setDeterministicAlgorithms(config.deterministic, /*warn_only=*/false);
}

bool isOutOfMemory(const std::string& message)
{
    return message.find("out of memory") != std::string::npos || message.find("bad_alloc") != std::string::npos ||
           message.find("can't allocate memory") != std::string::npos; // DefaultCPUAllocator
}

// What a dataset's kind needs before the loop starts: its task, or the reason it cannot run.
struct PreparedTask {
    std::unique_ptr<TrainingTask> task;
    std::string problem;
};

// A pretrained model (ModelSpec::pretrained) fine-tuned on a text dataset: the examples re-read as its word
// pieces ([CLS] ... [SEP], what it was trained on), a vocabulary of all its pieces (so no dev or test piece is
// unknown), its sizes from its config.json, and its weights loaded before the first step.
PreparedTask preparePretrained(const TextDataset& dataset, const TrainConfig& config, const torch::Device& device,
                               RunInfo& info, const std::string& pretrainedId)
{
    namespace fs = std::filesystem;
    if (!config.embeddingsPath.empty())
        return {nullptr, "embeddings: model '" + config.model.model + "' brings its own word-piece table (leave embeddings empty)"};
    std::string folder;
    try {
        folder = PretrainedEncoder::locate(pretrainedId, config.dataDir);
    } catch (const DataError& e) {
        return {nullptr, "model '" + config.model.model + "' starts from the pretrained model " + pretrainedId +
                             ", which is not installed (File > Datasets..., or attnlab-cli fetch " + pretrainedId + "): " + e.what()};
    }
    try {
        PretrainedEncoder::checkFolder(folder);
    } catch (const DataError& e) {
        return {nullptr, "model '" + config.model.model + "' needs the pretrained model " + pretrainedId + ": " + e.what() +
                             " (install it: File > Datasets..., or attnlab-cli fetch " + pretrainedId + ")"};
    }
    const BertConfig bert = BertConfig::fromFile((fs::path(folder) / "config.json").string());
    const WordPieceTokenizer tokenizer = WordPieceTokenizer::fromFolder(folder);

    TextDataset pieces = dataset;
    pieces.tokenizer = "wordpiece";
    pieces.lowercase = tokenizer.options().lowercase;
    int truncated = 0;
    auto reread = [&](std::vector<std::string>& tokens) {
        std::string text;
        for (const auto& t : tokens)
            text += (text.empty() ? "" : " ") + Tokenizer::fromPtbBracket(t);
        auto encoded = tokenizer.encode(text, bert.maxPositions);
        truncated += encoded.truncated > 0;
        tokens = std::move(encoded.tokens);
    };
    for (auto* split : {&pieces.train, &pieces.dev, &pieces.test})
        for (auto& example : *split)
            reread(example.tokens);
    if (!pieces.probeTokens.empty())
        reread(pieces.probeTokens);

    Vocabulary vocabulary;
    // wordRows[our id] = the pretrained table's row: <pad> is [PAD] (or [UNK]), <unk> is [UNK], then every piece.
    std::vector<std::int64_t> wordRows = {tokenizer.padId() >= 0 ? tokenizer.padId() : tokenizer.unkId(), tokenizer.unkId()};
    for (int id = 0; id < tokenizer.size(); ++id) {
        if (vocabulary.add(tokenizer.tokenOf(id)) != static_cast<std::int64_t>(wordRows.size()))
            return {nullptr, (fs::path(folder) / "vocab.txt").string() + ":" + std::to_string(id + 1) + ": \"" +
                                 tokenizer.tokenOf(id) + "\" is one of the run's own tokens (<pad>, <unk>)"};
        wordRows.push_back(id);
    }
    ModelConfig modelConfig = PretrainedEncoder::classifierConfig(config.model, bert);
    modelConfig.vocabularySize = static_cast<int>(vocabulary.size()); // the same count, as built
    modelConfig.numClasses = dataset.numClasses();
    info.config.model = modelConfig;
    if (auto problem = modelConfig.validate(); !problem.empty())
        return {nullptr, problem};
    auto model = ModelFactory::create(modelConfig);
    const SafetensorsFile weights((fs::path(folder) / "model.safetensors").string());
    const std::int64_t loaded = dynamic_cast<BertClassifier&>(*model).loadPretrained(weights, wordRows);
    model->to(device);
    info.parameters = model->trainableParametersWithoutEmbedding();
    info.modelSummary = model->summary() + "; pretrained: " + pretrainedId + " (" + std::to_string(loaded) +
                        " values from " + folder + ")";
    auto task = std::make_unique<ClassificationTask>(model, pieces, vocabulary, device, config.sampling, config.batchSize,
                                                     modelConfig.maxLength, config.probes);
    if (config.capturableStep)
        task->padToMultipleOf(TrainConfig::kLengthBucket);
    info.notes = task->notes();
    if (truncated > 0)
        info.notes.push_back(std::to_string(truncated) + " examples cut to the model's " + std::to_string(bert.maxPositions) + " pieces");
    return {std::move(task), {}};
}

PreparedTask prepare(const TextDataset& dataset, const TrainConfig& config, const torch::Device& device, RunInfo& info)
{
    if (dataset.train.empty() || dataset.dev.empty())
        return {nullptr, "dataset '" + dataset.id + "': train and dev splits must not be empty"};
    if (const ModelSpec* entry = Registry::model(config.model.model); entry && !entry->pretrained.empty())
        return preparePretrained(dataset, config, device, info, entry->pretrained);
    const Vocabulary vocabulary = Vocabulary::fromExamples(dataset.train);
    ModelConfig modelConfig = config.model;
    modelConfig.vocabularySize = static_cast<int>(vocabulary.size());
    modelConfig.numClasses = dataset.numClasses();
    if (const ModelSpec* entry = Registry::model(modelConfig.model); entry && entry->hasOption("input_length"))
        modelConfig.resolveInputLength(dataset.longestExample());
    std::unique_ptr<WordEmbeddings> embeddings;
    if (!config.embeddingsPath.empty()) {
        embeddings = std::make_unique<WordEmbeddings>(WordEmbeddings::load(DataLocator::locateFile(config.embeddingsPath, config.dataDir)));
        if (modelConfig.embeddingDim == 0)
            modelConfig.embeddingDim = embeddings->dimension(); // the file sets the input width
        else if (modelConfig.embeddingDim != embeddings->dimension())
            return {nullptr, "embedding_dim: " + std::to_string(modelConfig.embeddingDim) + " does not match the " +
                                 std::to_string(embeddings->dimension()) + "-d vectors of " + config.embeddingsPath};
    }
    info.config.model = modelConfig;
    if (auto problem = modelConfig.validate(); !problem.empty())
        return {nullptr, problem};
    auto model = ModelFactory::create(modelConfig);
    std::string embeddingsNote;
    if (embeddings)
        embeddingsNote = usePretrainedEmbeddings(*model, *embeddings, vocabulary, config);
    model->to(device);
    info.parameters = model->trainableParametersWithoutEmbedding();
    info.modelSummary = model->summary() + (embeddingsNote.empty() ? "" : "; " + embeddingsNote);
    auto task = std::make_unique<ClassificationTask>(model, dataset, vocabulary, device, config.sampling, config.batchSize,
                                                     modelConfig.maxLength, config.probes);
    if (config.capturableStep)
        task->padToMultipleOf(TrainConfig::kLengthBucket);
    info.notes = task->notes();
    return {std::move(task), {}};
}

PreparedTask prepare(const SeriesDataset& dataset, const TrainConfig& config, const torch::Device& device, RunInfo& info)
{
    if (dataset.train.empty() || dataset.dev.empty())
        return {nullptr, "dataset '" + dataset.id + "': train and dev splits must not be empty"};
    ModelConfig modelConfig = config.model;
    modelConfig.drivers = dataset.drivers();
    modelConfig.window = dataset.window;
    modelConfig.horizon = dataset.horizon;
    info.config.model = modelConfig;
    if (auto problem = modelConfig.validate(); !problem.empty())
        return {nullptr, problem};
    auto model = ModelFactory::createRegressor(modelConfig);
    model->to(device);
    info.parameters = model->trainableParameters();
    auto task = std::make_unique<RegressionTask>(model, dataset, device, config.sampling); // fits a baseline
    info.modelSummary = model->summary() + ", " + std::to_string(dataset.drivers()) + " driving series";
    info.notes = task->notes(); // what the fit chose (ARIMA's orders)
    return {std::move(task), {}};
}

PreparedTask prepare(const TranslationDataset& dataset, const TrainConfig& config, const torch::Device& device, RunInfo& info)
{
    if (dataset.train.empty() || dataset.dev.empty())
        return {nullptr, "dataset '" + dataset.id + "': train and dev splits must not be empty"};
    if (!config.embeddingsPath.empty())
        return {nullptr, "embeddings: word vectors are for the classifiers; a translation model learns both word tables"};
    auto [source, target] = Vocabulary::ofTranslation(dataset);
    ModelConfig modelConfig = config.model;
    modelConfig.vocabularySize = static_cast<int>(source.size());
    modelConfig.targetVocabularySize = static_cast<int>(target.size());
    modelConfig.numClasses = 0;
    info.config.model = modelConfig;
    if (auto problem = modelConfig.validate(); !problem.empty())
        return {nullptr, problem};
    auto model = ModelFactory::createTranslator(modelConfig);
    model->to(device);
    info.parameters = model->trainableParametersWithoutEmbedding();
    info.modelSummary = model->summary();
    auto task = std::make_unique<TranslationTask>(model, dataset, std::move(source), std::move(target), device, info.config);
    info.notes = task->notes();
    return {std::move(task), {}};
}

PreparedTask prepare(const LanguageModelDataset& dataset, const TrainConfig& config, const torch::Device& device, RunInfo& info)
{
    if (dataset.train.empty() || dataset.dev.size() < 2 || dataset.test.size() < 2)
        return {nullptr, "dataset '" + dataset.id + "': train, dev and test must each have text (dev and test at least 2 tokens)"};
    if (!config.embeddingsPath.empty())
        return {nullptr, "embeddings: word vectors are for the classifiers; a language model learns its own token table"};
    ModelConfig modelConfig = config.model;
    modelConfig.vocabularySize = static_cast<int>(dataset.vocabulary.size());
    modelConfig.numClasses = 0;
    info.config.model = modelConfig;
    if (auto problem = modelConfig.validate(); !problem.empty())
        return {nullptr, problem};
    auto model = ModelFactory::createLanguageModel(modelConfig);
    if (auto* counts = dynamic_cast<NgramModel*>(model.get()))
        counts->estimate(dataset.train); // one pass over the training stream: all there is to "training" it
    model->to(device);
    info.parameters = model->trainableParameters();
    info.modelSummary = model->summary();
    try {
        auto task = std::make_unique<LanguageModelTask>(model, dataset, device, info.config);
        info.notes = dataset.notes;
        if (dynamic_cast<NgramModel*>(model.get()))
            info.notes.push_back("a count model: estimated in one pass over the training split (its one step), nothing to train");
        return {std::move(task), {}};
    } catch (const std::invalid_argument& e) {
        return {nullptr, e.what()};
    }
}

double metric(const TrainingTask::Evaluation& e, const std::string& name)
{
    for (const auto& [n, v] : e.metrics)
        if (n == name)
            return v;
    return 0.0;
}

} // namespace

Trainer::Trainer(TrainConfig config) : config_(std::move(config)) {}

RunSummary Trainer::run(const TextDataset& dataset, TrainingObserver& observer, const CancelToken& cancel)
{
    return runTask(dataset, observer, cancel);
}

RunSummary Trainer::run(const SeriesDataset& dataset, TrainingObserver& observer, const CancelToken& cancel)
{
    return runTask(dataset, observer, cancel);
}

RunSummary Trainer::run(const TranslationDataset& dataset, TrainingObserver& observer, const CancelToken& cancel)
{
    return runTask(dataset, observer, cancel);
}

RunSummary Trainer::run(const LanguageModelDataset& dataset, TrainingObserver& observer, const CancelToken& cancel)
{
    return runTask(dataset, observer, cancel);
}

RunSummary Trainer::run(const LoadedDataset& dataset, TrainingObserver& observer, const CancelToken& cancel)
{
    if (dataset.languageModel)
        return runTask(dataset.stream, observer, cancel);
    if (dataset.translation)
        return runTask(dataset.pairs, observer, cancel);
    return dataset.regression ? runTask(dataset.series, observer, cancel) : runTask(dataset.text, observer, cancel);
}

template <typename Dataset>
RunSummary Trainer::runTask(const Dataset& dataset, TrainingObserver& observer, const CancelToken& cancel)
{
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };

    RunSummary summary;
    summary.regression = std::is_same_v<Dataset, SeriesDataset>;
    summary.translation = std::is_same_v<Dataset, TranslationDataset>;
    summary.languageModel = std::is_same_v<Dataset, LanguageModelDataset>;
    RunInfo info;
    std::string capNote;
    std::optional<Dataset> smoke; // the dataset with its dev and test cut to kSmokeExamples, under the cap
    const int cap = stepCap();
    if (cap > 0 && (dataset.dev.size() > kSmokeExamples || dataset.test.size() > kSmokeExamples)) {
        smoke = dataset;
        smoke->dev.resize(std::min(smoke->dev.size(), kSmokeExamples));
        smoke->test.resize(std::min(smoke->test.size(), kSmokeExamples));
    }
    const Dataset& data = smoke ? *smoke : dataset;
    if (cap > 0 && (config_.epochs > 0 || config_.steps > cap || smoke)) {
        capNote = "steps capped at " + std::to_string(std::min(cap, config_.epochs > 0 ? cap : config_.steps)) +
                  " and dev and test at " + std::to_string(kSmokeExamples) +
                  " examples each by ATTNLAB_MAX_STEPS, a smoke test: not a result (the configuration asked for " +
                  (config_.epochs > 0 ? std::to_string(config_.epochs) + " epochs)" : std::to_string(config_.steps) + " steps)");
        config_.steps = config_.epochs > 0 ? cap : std::min(cap, config_.steps);
        config_.epochs = 0;
        config_.warmupSteps = std::min(config_.warmupSteps, cap);
    }
    info.config = config_;
    if (!capNote.empty()) {
        info.notes.push_back(capNote);
        summary.notes.push_back(capNote);
    }
    info.torchVersion = ComputeDevice::torchVersion();
    bool startedReported = false;
    int stepsDone = 0; // how far the loop got, should it end in an exception
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
        ComputeDevice::setThreads(config_.threads);
        const std::string deviceName = ComputeDevice::resolve(config_.device);
        const torch::Device device(deviceName);
        const std::string numerics = numericsNote(config_, device);
        info.device = summary.device = ComputeDevice::describe(deviceName) + (numerics.empty() ? "" : " [" + numerics + "]");
        info.environment = ComputeDevice::environment(deviceName);
        if (!numerics.empty())
            info.environment["numerics"] = numerics;
        // The user's own files, fingerprinted: a view reading the run's data later knows if they moved or changed.
        for (auto& [key, sha256] : OwnDataFiles::fingerprints(config_.datasetOptions()))
            info.environment[key] = sha256;
        applyNumerics(config_, device);
        torch::manual_seed(config_.seed);

        auto prepared = prepare(data, config_, device, info);
        if (!prepared.task)
            return finish(RunStatus::Failed, prepared.problem);
        summary.parameters = info.parameters;
        if (config_.capturableStep) { // whether the switch did what it says, in the run's notes
            const auto why = TrainingLoop::whyNotCaptured(info.config, *prepared.task, device.is_cuda());
            info.notes.push_back(why.empty() ? "each training step replayed from a CUDA graph, one per batch shape (capturable_step)"
                                             : "capturable_step: training steps not captured as CUDA graphs: " + why);
        }
        observer.onStarted(info);
        startedReported = true;

        // info.config: the model's sizes as built (vocabulary, classes), which a checkpoint must record.
        const auto outcome = TrainingLoop::run(info.config, *prepared.task, observer, cancel, elapsed, &stepsDone);
        summary.steps = outcome.steps;
        summary.bestStep = outcome.bestStep;
        summary.stoppedEarly = outcome.stoppedEarly;
        summary.notes.insert(summary.notes.end(), outcome.notes.begin(), outcome.notes.end());
        if (summary.languageModel) {
            summary.bestDevLoss = metric(outcome.bestDev, "loss");
            summary.bestDevAccuracy = metric(outcome.bestDev, "accuracy");
            if (outcome.test) {
                summary.testLoss = metric(*outcome.test, "loss");
                summary.testBitsPerToken = metric(*outcome.test, "bits_per_token");
                summary.testPerplexity = metric(*outcome.test, "perplexity");
                summary.testAccuracy = metric(*outcome.test, "accuracy");
            }
        } else if (summary.translation) {
            summary.bestDevBleu = metric(outcome.bestDev, "bleu");
            summary.bestDevAccuracy = summary.bestDevBleu / 100.0;
            summary.bleuSignature = BleuScore().signature(1);
            summary.chrfSignature = ChrfScore().signature(1);
            if (outcome.test) {
                summary.testBleu = metric(*outcome.test, "bleu");
                summary.testAccuracy = summary.testBleu / 100.0;
                summary.testChrf = metric(*outcome.test, "chrf");
                summary.testBleuTokenized = metric(*outcome.test, "bleu_tokenized");
                summary.testPerplexity = metric(*outcome.test, "perplexity");
                for (const auto& [name, value] : outcome.test->metrics) {
                    if (name == "exact_match")
                        summary.testExactMatch = value;
                    if (name == "aer")
                        summary.testAer = value;
                }
            }
        } else if (summary.regression) {
            // What a fitted baseline chose (ARIMA's orders) stays with the run, in its notes.
            summary.notes.insert(summary.notes.begin(), info.notes.begin(), info.notes.end());
            summary.bestDevRmse = metric(outcome.bestDev, "rmse");
            if (outcome.test) {
                summary.testMae = metric(*outcome.test, "mae");
                summary.testRmse = metric(*outcome.test, "rmse");
                summary.testMape = metric(*outcome.test, "mape");
                summary.testForecast = outcome.test->forecast;
            }
        } else {
            summary.bestDevAccuracy = metric(outcome.bestDev, "accuracy");
            if (outcome.test) {
                summary.testAccuracy = metric(*outcome.test, "accuracy");
                summary.testMacroF1 = metric(*outcome.test, "macro_f1");
                summary.testConfusion = outcome.test->confusion;
            }
        }
        return finish(outcome.status, outcome.message);
    } catch (const std::exception& e) {
        const std::string what = e.what();
        summary.steps = stepsDone;
        const std::string firstLine = what.substr(0, what.find('\n'));
        if (isOutOfMemory(what)) {
            // On a GPU, what is free after the failed allocation (LibTorch's own line says what was asked).
            std::string free;
            try {
                if (const auto memory = ComputeDevice::memoryInfo(ComputeDevice::resolve(config_.device)))
                    free = " (free now " + std::to_string(memory->first >> 20) + " MiB of " +
                           std::to_string(memory->second >> 20) + " MiB)";
            } catch (const std::exception&) { // the device is gone too: the message says what is known
            }
            return finish(RunStatus::Failed, "out of memory on " + summary.device + " with model " + config_.model.model +
                                                 ", d_model " + std::to_string(config_.model.dModel) + ", batch " +
                                                 std::to_string(config_.batchSize) + ": " + firstLine + free);
        }
        if (what.find("CUDA error") != std::string::npos || what.find("CUDA driver") != std::string::npos)
            return finish(RunStatus::Failed, "the GPU failed (" + summary.device + ") with model " + config_.model.model +
                                                 ", batch " + std::to_string(config_.batchSize) + ": " + firstLine);
        return finish(RunStatus::Failed, firstLine);
    }
}

} // namespace attnlab
