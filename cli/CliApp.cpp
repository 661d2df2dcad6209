#include "cli/CliApp.h"

#include "cli/CliFlags.h"
#include "cli/commands/BenchCommand.h"
#include "cli/commands/RunsCommand.h"
#include "core/config/Registry.h"
#include "core/config/TrainPreset.h"
#include "core/data/DataError.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/DatasetStatistics.h"
#include "core/data/install/DatasetInstaller.h"
#include "core/data/Vocabulary.h"
#include "core/data/WordEmbeddings.h"
#include "core/results/RepeatStatistics.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/CompositeObserver.h"
#include "core/training/ComputeDevice.h"
#include "core/training/TextClassifier.h"
#include "core/training/Trainer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace attnlab {
namespace {

// Ctrl-C stops the run before the next batch; the run is then stored as cancelled.
CancelToken* gInterruptToken = nullptr;
extern "C" void onInterrupt(int)
{
    if (gInterruptToken)
        gInterruptToken->cancel();
}

using UsageError = CliUsageError;
using Flags = CliFlags;

const std::set<std::string> kModelFlags = {"--dataset", "--model", "--position", "--d-model", "--layers", "--rpr-clip",
                                           "--ff-hidden", "--dropout-keep", "--heads", "--ffn-hidden", "--filters",
                                           "--max-length", "--activation", "--pooling", "--dropout-points",
                                           "--dropout-input-keep", "--dropout-hidden-keep", "--dropout-output-keep",
                                           "--embedding-dim"};

void checkIds(const std::string& dataset, const std::string& model, const std::string& position)
{
    if (!Registry::find(Registry::datasets(), dataset))
        throw UsageError("unknown dataset '" + dataset + "' (known: " + Registry::idList(Registry::datasets()) + ")");
    if (!Registry::find(Registry::models(), model))
        throw UsageError("unknown model '" + model + "' (known: " + Registry::idList(Registry::models()) + ")");
    if (!Registry::find(Registry::positions(), position))
        throw UsageError("unknown position technique '" + position + "' (known: " + Registry::idList(Registry::positions()) + ")");
}

// Dataset options shared by stats, describe and train (docs/DATASETS.md).
const std::set<std::string> kDatasetFlags = {"--data-dir", "--file", "--train-file", "--dev-file", "--test-file",
                                             "--text-column", "--label-column", "--target-column", "--drivers",
                                             "--delimiter", "--header", "--window", "--tokenizer", "--lag",
                                             "--distance", "--min-fillers", "--max-fillers", "--dataset-seed"};
const std::set<std::string> kDatasetBooleans = {"--phrases", "--lowercase"};

DatasetOptions datasetOptionsFrom(const Flags& flags)
{
    DatasetOptions o;
    o.seed = static_cast<std::uint64_t>(flags.integer("--dataset-seed", static_cast<long long>(o.seed)));
    o.dataDir = flags.text("--data-dir", o.dataDir);
    o.phrases = flags.has("--phrases");
    o.lowercase = flags.has("--lowercase");
    o.file = flags.text("--file", o.file);
    o.trainFile = flags.text("--train-file", o.trainFile);
    o.devFile = flags.text("--dev-file", o.devFile);
    o.testFile = flags.text("--test-file", o.testFile);
    o.textColumn = flags.text("--text-column", o.textColumn);
    o.labelColumn = flags.text("--label-column", o.labelColumn);
    o.targetColumn = flags.text("--target-column", o.targetColumn);
    o.tokenizer = flags.text("--tokenizer", o.tokenizer);
    for (std::string rest = flags.text("--drivers", ""); !rest.empty();) {
        const auto comma = rest.find(',');
        o.driverColumns.push_back(rest.substr(0, comma));
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    }
    const std::string delimiter = flags.text("--delimiter", "");
    if (delimiter == "tab" || delimiter == "\\t") o.delimiter = '\t';
    else if (delimiter.size() == 1) o.delimiter = delimiter[0];
    else if (!delimiter.empty()) throw UsageError("--delimiter expects one character or 'tab', got '" + delimiter + "'");
    const std::string header = flags.text("--header", "auto");
    if (header != "auto" && header != "yes" && header != "no")
        throw UsageError("--header expects auto, yes or no, got '" + header + "'");
    o.header = header == "auto" ? -1 : header == "yes" ? 1 : 0;
    o.window = static_cast<int>(flags.integer("--window", o.window));
    o.lag = static_cast<int>(flags.integer("--lag", o.lag));
    o.distance = static_cast<int>(flags.integer("--distance", o.distance));
    o.minFillers = static_cast<int>(flags.integer("--min-fillers", o.minFillers));
    o.maxFillers = static_cast<int>(flags.integer("--max-fillers", std::max(o.maxFillers, o.minFillers)));
    return o;
}

ModelConfig modelConfigFrom(const Flags& flags, const ModelConfig* base = nullptr)
{
    ModelConfig m = base ? *base : ModelConfig{};
    m.model = base ? flags.text("--model", m.model) : flags.required("--model");
    m.position = base ? flags.text("--position", m.position) : flags.required("--position");
    m.dModel = static_cast<int>(flags.integer("--d-model", m.dModel));
    m.embeddingDim = static_cast<int>(flags.integer("--embedding-dim", m.embeddingDim));
    m.layers = static_cast<int>(flags.integer("--layers", m.layers));
    m.rprClip = static_cast<int>(flags.integer("--rpr-clip", m.rprClip));
    m.ffHidden = static_cast<int>(flags.integer("--ff-hidden", m.ffHidden));
    m.dropoutKeep = flags.real("--dropout-keep", m.dropoutKeep);
    m.dropoutPoints = flags.text("--dropout-points", m.dropoutPoints);
    m.dropoutInputKeep = flags.real("--dropout-input-keep", m.dropoutInputKeep);
    m.dropoutHiddenKeep = flags.real("--dropout-hidden-keep", m.dropoutHiddenKeep);
    m.dropoutOutputKeep = flags.real("--dropout-output-keep", m.dropoutOutputKeep);
    m.heads = static_cast<int>(flags.integer("--heads", m.heads));
    m.ffnHidden = static_cast<int>(flags.integer("--ffn-hidden", m.ffnHidden));
    m.filters = static_cast<int>(flags.integer("--filters", m.filters));
    m.maxLength = static_cast<int>(flags.integer("--max-length", m.maxLength));
    m.activation = flags.text("--activation", m.activation);
    m.pooling = flags.text("--pooling", m.pooling);
    return m;
}

const char* kUsage =
    "usage: attnlab-cli <command> [options]\n"
    "  list [--json]                         datasets, models and position techniques with their ids\n"
    "  describe --dataset D --model M --position P [--d-model N] [--layers N] [--rpr-clip K] [--json]\n"
    "                                        model summary and trainable parameters (embeddings excluded)\n"
    "  train [--preset NAME | --config FILE.json] --dataset D --model M --position P [--repeat R] [--db FILE]\n"
    "        [--steps N | --epochs N] [--seed S] [--device auto|cpu|cuda] [--threads N] [--batch-size N]\n"
    "        [--eval-every N] [--log-every N] [--patience N] [--sampling random|epochs]\n"
    "        [--optimizer adam|adadelta|sgd] [--lr X] [--momentum M] [--l2 G] [--weight-decay W] [--clip-norm C]\n"
    "        [--lr-schedule constant|step|cosine] [--lr-decay-every N] [--lr-decay-gamma G] [--warmup-steps N] [--amp]\n"
    "        [--embeddings FILE [--embeddings-frozen] [--oov-range A]] [--phrases] [--checkpoint-dir DIR]\n"
    "        [model options] [dataset options]\n"
    "        [--json]  a preset or config gives every setting; flags override it. --repeat R: seeds S..S+R-1,\n"
    "        reported as mean ± std. Progress: a bar on a terminal, JSON lines on stderr otherwise.\n"
    "        --checkpoint-dir DIR: each completed run's best-dev weights are saved there (runs show lists them)\n"
    "  presets [--json]                      the thesis experiments' presets (train --preset NAME)\n"
    "  stats DATASET [--phrases] [--embeddings FILE] [dataset options] [--json]\n"
    "                                        examples per split, class balance, lengths, vocabulary, coverage\n"
    "  fetch DATASET [--data-dir DIR] [--url-base URL] [--json]\n"
    "                                        download the manifest's files (sha256-checked, placed atomically)\n"
    "  import DATASET PATH [--data-dir DIR] [--json]\n"
    "                                        copy them from a folder or archive (.tar.gz, .zip, ...), sha256-checked\n"
    "  bench [--models lstm,ssan-rpr,...] [--epochs N] [--passes N] [--device auto|cpu|cuda] [--threads N]\n"
    "        [--dataset sst-fine] [--d-model 300] [--db FILE | --no-store] [--one-process] [--json]\n"
    "                                        thesis Table 5.4: params, peak memory, train/predict time per model\n"
    "  runs list|show|export|import|tag|note|groups [--db FILE] ...   the run store (attnlab-cli runs --help)\n"
    "  dataset options: --data-dir DIR --lowercase --file F | --train-file F --dev-file F --test-file F\n"
    "        --text-column C --label-column C --target-column C --drivers C1,C2 --delimiter X|tab --header auto|yes|no\n"
    "        --tokenizer whitespace|ptb|tweet --window T --lag L --distance D --min-fillers N --max-fillers N\n"
    "  model options (describe, train): --d-model N --layers N --heads N --rpr-clip K --ffn-hidden N --ff-hidden N\n"
    "        --filters N --max-length N --activation relu|swish|gelu --pooling mean|max|attention --dropout-keep P\n"
    "        --dropout-points input,hidden,output --dropout-input-keep P --dropout-hidden-keep P --dropout-output-keep P\n";

} // namespace

CliApp::CliApp(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}

int CliApp::usage(const std::string& problem)
{
    err_ << "attnlab-cli: " << problem << "\n" << kUsage;
    return 2;
}

int CliApp::run(const std::vector<std::string>& args)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        (args.empty() ? err_ : out_) << kUsage;
        return args.empty() ? 2 : 0;
    }
    try {
        if (args[0] == "list")
            return list(args);
        if (args[0] == "describe")
            return describe(args);
        if (args[0] == "presets")
            return presets(args);
        if (args[0] == "train")
            return train(args);
        if (args[0] == "stats")
            return stats(args);
        if (args[0] == "fetch" || args[0] == "import")
            return fetchOrImport(args);
        if (args[0] == "runs")
            return RunsCommand(out_, err_).run(args);
        if (args[0] == "bench")
            return BenchCommand(out_, err_).run(args);
        return usage("unknown command '" + args[0] + "'");
    } catch (const UsageError& e) {
        return usage(e.what());
    } catch (const std::exception& e) {
        err_ << "attnlab-cli: " << e.what() << "\n";
        return 1;
    }
}

int CliApp::list(const std::vector<std::string>& args)
{
    Flags flags(args, {}, {"--json"});
    auto toJson = [](const std::vector<RegistryEntry>& list) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& e : list) {
            nlohmann::json o = {{"id", e.id}, {"name", e.name}, {"description", e.description}};
            if (!e.positions.empty())
                o["positions"] = e.positions;
            a.push_back(o);
        }
        return a;
    };
    if (flags.has("--json")) {
        out_ << nlohmann::json{{"datasets", toJson(Registry::datasets())}, {"models", toJson(Registry::models())},
                               {"positions", toJson(Registry::positions())}}.dump()
             << "\n";
        return 0;
    }
    auto print = [&](const char* title, const std::vector<RegistryEntry>& list) {
        out_ << title << ":\n";
        for (const auto& e : list) {
            out_ << "  " << std::left << std::setw(22) << e.id << e.description;
            if (!e.positions.empty()) {
                out_ << " [positions:";
                for (const auto& p : e.positions) out_ << " " << p;
                out_ << "]";
            }
            out_ << "\n";
        }
    };
    print("datasets", Registry::datasets());
    print("models", Registry::models());
    print("positions", Registry::positions());
    return 0;
}

int CliApp::describe(const std::vector<std::string>& args)
{
    auto valued = kModelFlags;
    Flags flags(args, valued, {"--json"});
    ModelConfig m = modelConfigFrom(flags);
    const std::string datasetId = flags.required("--dataset");
    checkIds(datasetId, m.model, m.position);
    const TextDataset dataset = DatasetCatalog::load(datasetId);
    m.numClasses = dataset.numClasses();
    m.vocabularySize = static_cast<int>(Vocabulary::fromExamples(dataset.train).size());
    if (auto problem = m.validate(); !problem.empty())
        throw UsageError(problem);
    TextClassifier classifier(m);
    const auto params = classifier.trainableParameters();
    if (flags.has("--json")) {
        out_ << nlohmann::json{{"dataset", datasetId}, {"model", m.model}, {"position", m.position},
                               {"d_model", m.dModel}, {"layers", m.layers}, {"classes", m.numClasses},
                               {"rpr_clip", m.position == "rpr" ? m.rprClip : 0}, {"params", params},
                               {"summary", classifier.summary()}}.dump()
             << "\n";
    } else {
        out_ << classifier.summary() << "\n"
             << "trainable parameters (embeddings excluded): " << params << "\n";
    }
    return 0;
}

int CliApp::stats(const std::vector<std::string>& args)
{
    // "stats DATASET [options]" or "stats --dataset DATASET [options]".
    std::vector<std::string> rest = {args[0]};
    std::string id;
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (id.empty() && i == 1 && args[i].rfind("--", 0) != 0) id = args[i];
        else rest.push_back(args[i]);
    }
    auto valued = kDatasetFlags;
    valued.insert({"--dataset", "--embeddings"});
    auto booleans = kDatasetBooleans;
    booleans.insert({"--json", "--no-cache"});
    Flags flags(rest, valued, booleans);
    if (id.empty()) id = flags.required("--dataset");
    if (!Registry::find(Registry::datasets(), id))
        throw UsageError("unknown dataset '" + id + "' (known: " + Registry::idList(Registry::datasets()) + ")");
    DatasetOptions options = datasetOptionsFrom(flags);
    using Clock = std::chrono::steady_clock;
    auto seconds = [](Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); };
    nlohmann::json timings;

    DatasetStatistics statistics;
    if (DatasetCatalog::isRegression(id)) {
        const auto started = Clock::now();
        statistics = DatasetStatistics::of(DatasetCatalog::loadSeries(id, options));
        timings["dataset_seconds"] = seconds(started);
    } else {
        // With --phrases, "train" is every labelled phrase once (thesis 5.2.1: 318,582 for SST) and
        // "train_balanced" the training set after the class multipliers and extra sentence copies.
        DatasetOptions raw = options;
        raw.rebalance = false;
        auto started = Clock::now();
        const TextDataset dataset = DatasetCatalog::load(id, raw);
        timings["dataset_seconds"] = seconds(started);
        statistics = DatasetStatistics::of(dataset);
        if (options.phrases && (id == "sst-fine" || id == "sst-binary")) {
            const TextDataset balanced = DatasetCatalog::load(id, options);
            statistics.trainBalanced = DatasetStatistics::splitOf("train_balanced", balanced.train, balanced.numClasses());
        }
        if (flags.has("--embeddings")) {
            WordEmbeddings::LoadOptions load;
            load.useCache = !flags.has("--no-cache");
            started = Clock::now();
            const auto embeddings = WordEmbeddings::load(flags.required("--embeddings"), load);
            timings["embeddings_seconds"] = seconds(started);
            timings["embeddings_from_cache"] = embeddings.report().fromCache;
            timings["embeddings_format"] = embeddings.report().format;
            timings["embeddings_vectors"] = embeddings.size();
            timings["embeddings_dimension"] = embeddings.dimension();
            statistics.addCoverage(dataset, embeddings, flags.required("--embeddings"));
        }
    }
    if (flags.has("--json")) {
        auto j = nlohmann::json::parse(statistics.toJson());
        j["load"] = timings;
        out_ << j.dump() << "\n";
    } else {
        out_ << statistics.toText();
        if (timings.contains("embeddings_seconds"))
            out_ << "  embeddings loaded in " << std::fixed << std::setprecision(3) << timings["embeddings_seconds"].get<double>()
                 << " s" << (timings["embeddings_from_cache"].get<bool>() ? " (from the cache)" : "") << "\n";
    }
    return 0;
}

int CliApp::fetchOrImport(const std::vector<std::string>& args)
{
    // "fetch DATASET [options]" and "import DATASET PATH [options]".
    const bool importing = args[0] == "import";
    std::vector<std::string> positional, rest = {args[0]};
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (rest.size() == 1 && args[i].rfind("--", 0) != 0) positional.push_back(args[i]);
        else rest.push_back(args[i]);
    }
    const std::size_t wanted = importing ? 2 : 1;
    if (positional.size() != wanted)
        throw UsageError(importing ? "import needs a dataset id and a folder or archive: import DATASET PATH"
                                   : "fetch needs one dataset id: fetch DATASET");
    Flags flags(rest, importing ? std::set<std::string>{"--data-dir"} : std::set<std::string>{"--data-dir", "--url-base"},
                {"--json"});
    const DatasetManifest* manifest = DatasetManifest::find(positional[0]);
    if (!manifest)
        throw UsageError("no manifest for dataset '" + positional[0] + "' (known: " + DatasetManifest::idList() + ")");
    if (manifest->files.empty()) {
        out_ << manifest->id << " is generated in-process or read from your own files; there is nothing to "
             << (importing ? "import" : "fetch") << "\n";
        return 0;
    }
    DatasetInstaller::Options options;
    options.dataDir = flags.text("--data-dir", "");
    options.urlBase = flags.text("--url-base", "");
    const bool tty = isatty(STDERR_FILENO);
    auto lastDraw = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    options.progress = [&](const TransferProgress& p) {
        const bool fileDone = p.stage == "placed" || p.stage == "present";
        if (!tty) {
            if (fileDone)
                err_ << "[" << p.fileIndex + 1 << "/" << p.fileCount << "] " << p.file
                     << (p.stage == "present" ? " already present" : " verified and placed") << "\n";
            return;
        }
        const auto now = std::chrono::steady_clock::now();
        if (!fileDone && now - lastDraw < std::chrono::milliseconds(100))
            return;
        lastDraw = now;
        const int percent = p.total > 0 ? static_cast<int>(100 * p.done / p.total) : 0;
        err_ << "\r[" << std::setw(3) << std::min(percent, 100) << "%] " << p.fileIndex + 1 << "/" << p.fileCount << " "
             << p.file << " " << p.fileDone / 1024 << " KiB\033[K" << std::flush;
    };
    CancelToken cancel;
    options.cancel = &cancel;
    gInterruptToken = &cancel;
    auto previous = std::signal(SIGINT, onInterrupt);
    InstallReport report;
    try {
        report = importing ? DatasetInstaller::importFrom(*manifest, positional[1], options)
                           : DatasetInstaller::fetch(*manifest, options);
    } catch (const TransferCancelled& e) {
        std::signal(SIGINT, previous);
        gInterruptToken = nullptr;
        err_ << (tty ? "\n" : "") << "attnlab-cli: " << e.what() << "\n";
        return 130;
    } catch (...) {
        std::signal(SIGINT, previous);
        gInterruptToken = nullptr;
        if (tty) err_ << "\n";
        throw;
    }
    std::signal(SIGINT, previous);
    gInterruptToken = nullptr;
    if (tty) err_ << "\n";
    if (flags.has("--json")) {
        out_ << nlohmann::json{{"dataset", manifest->id}, {"data_dir", report.dataDir}, {"placed", report.placed},
                               {"already_present", report.alreadyPresent}, {"bytes_placed", report.bytesPlaced}}.dump()
             << "\n";
    } else {
        out_ << manifest->id << ": " << report.placed.size() << " files " << (importing ? "imported" : "downloaded")
             << " (" << report.bytesPlaced << " bytes), " << report.alreadyPresent.size()
             << " already present, all sha256-checked, in " << report.dataDir << "\n";
    }
    return 0;
}

int CliApp::presets(const std::vector<std::string>& args)
{
    Flags flags(args, {}, {"--json"});
    if (flags.has("--json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : TrainPreset::all())
            list.push_back({{"name", p.name}, {"description", p.description}, {"repeats", p.repeats},
                            {"config", nlohmann::json::parse(p.config.toJson())}});
        out_ << list.dump() << "\n";
        return 0;
    }
    for (const auto& p : TrainPreset::all())
        out_ << std::left << std::setw(38) << p.name << " " << p.description << " (" << p.config.dataset << ", "
             << (p.config.epochs > 0 ? std::to_string(p.config.epochs) + " epochs" : std::to_string(p.config.steps) + " steps")
             << ", " << p.repeats << (p.repeats == 1 ? " run" : " runs") << ")\n";
    return 0;
}

int CliApp::train(const std::vector<std::string>& args)
{
    auto valued = kModelFlags;
    valued.insert({"--steps", "--seed", "--db", "--device", "--batch-size", "--eval-every", "--optimizer", "--lr",
                   "--threads", "--sampling", "--config", "--preset", "--repeat", "--momentum", "--l2", "--weight-decay",
                   "--lr-schedule", "--lr-decay-every", "--lr-decay-gamma", "--warmup-steps", "--clip-norm", "--epochs",
                   "--patience", "--log-every", "--checkpoint-dir"});
    valued.insert(kDatasetFlags.begin(), kDatasetFlags.end());
    valued.insert({"--embeddings", "--oov-range"});
    auto booleans = kDatasetBooleans;
    booleans.insert({"--json", "--embeddings-frozen", "--amp"});
    Flags flags(args, valued, booleans);
    // The base: a preset, a config file, or the defaults; every flag given overrides it.
    std::optional<TrainPreset> base;
    if (flags.has("--preset") && flags.has("--config"))
        throw UsageError("--preset and --config: give one of them");
    if (flags.has("--preset")) {
        const TrainPreset* preset = TrainPreset::find(flags.required("--preset"));
        if (!preset) {
            std::string names;
            for (const auto& p : TrainPreset::all())
                names += (names.empty() ? "" : ", ") + p.name;
            throw UsageError("unknown preset '" + flags.required("--preset") + "' (known: " + names + ")");
        }
        base = *preset;
    } else if (flags.has("--config")) {
        try {
            base = TrainPreset::fromFile(flags.required("--config"));
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--config ") + e.what());
        }
    }
    TrainConfig c = base ? base->config : TrainConfig{};
    c.model = modelConfigFrom(flags, base ? &base->config.model : nullptr);
    c.dataset = base ? flags.text("--dataset", c.dataset) : flags.required("--dataset");
    checkIds(c.dataset, c.model.model, c.model.position);
    const bool regression = DatasetCatalog::isRegression(c.dataset);
    DatasetOptions datasetOptions = datasetOptionsFrom(flags);
    datasetOptions.phrases = datasetOptions.phrases || c.phrases;
    if (datasetOptions.dataDir.empty())
        datasetOptions.dataDir = c.dataDir;
    c.phrases = datasetOptions.phrases;
    c.dataDir = datasetOptions.dataDir;
    c.embeddingsPath = flags.text("--embeddings", c.embeddingsPath);
    c.embeddingsFrozen = c.embeddingsFrozen || flags.has("--embeddings-frozen");
    c.oovRange = flags.real("--oov-range", c.oovRange);
    c.checkpointDir = flags.text("--checkpoint-dir", c.checkpointDir);
    c.steps = static_cast<int>(flags.integer("--steps", c.steps));
    c.epochs = static_cast<int>(flags.integer("--epochs", flags.has("--steps") ? 0 : c.epochs));
    c.seed = static_cast<std::uint64_t>(flags.integer("--seed", static_cast<long long>(c.seed)));
    c.device = flags.text("--device", c.device);
    c.batchSize = static_cast<int>(flags.integer("--batch-size", c.batchSize));
    c.sampling = flags.text("--sampling", c.sampling);
    c.evalEvery = static_cast<int>(flags.integer("--eval-every", c.evalEvery));
    c.logEvery = static_cast<int>(flags.integer("--log-every", c.logEvery));
    c.patience = static_cast<int>(flags.integer("--patience", c.patience));
    const std::string optimizerBefore = c.optimizer;
    c.optimizer = flags.text("--optimizer", c.optimizer);
    const bool optimizerChanged = c.optimizer != optimizerBefore || !base;
    c.learningRate = flags.real("--lr", optimizerChanged ? (c.optimizer == "adadelta" ? 1.0 : c.optimizer == "sgd" ? 0.1 : 1e-3)
                                                         : c.learningRate);
    c.momentum = flags.real("--momentum", c.momentum);
    c.l2 = flags.real("--l2", c.l2);
    c.weightDecay = flags.real("--weight-decay", c.weightDecay);
    c.lrSchedule = flags.text("--lr-schedule", c.lrSchedule);
    c.lrDecayEvery = static_cast<int>(flags.integer("--lr-decay-every", c.lrDecayEvery));
    c.lrDecayGamma = flags.real("--lr-decay-gamma", c.lrDecayGamma);
    c.warmupSteps = static_cast<int>(flags.integer("--warmup-steps", c.warmupSteps));
    c.clipNorm = flags.real("--clip-norm", c.clipNorm);
    c.amp = c.amp || flags.has("--amp");
    c.threads = static_cast<int>(flags.integer("--threads", c.threads));
    const int repeats = static_cast<int>(flags.integer("--repeat", base ? base->repeats : 1));
    if (repeats < 1)
        throw UsageError("--repeat: at least 1 run (got " + std::to_string(repeats) + ")");
    if (!c.embeddingsPath.empty())
        c.embeddingsPath = c.embeddingsFile(); // a preset's path is relative to the data folder
    if (auto problem = c.validate(); !problem.empty())
        throw UsageError(problem);
    if (c.device == "cuda")
        ComputeDevice::resolve("cuda"); // fail before opening anything

    const bool json = flags.has("--json");
    TextDataset dataset;
    SeriesDataset series;
    if (regression) {
        series = DatasetCatalog::loadSeries(c.dataset, datasetOptions);
        if (!c.embeddingsPath.empty())
            throw UsageError("--embeddings: '" + c.dataset + "' is a time series; word vectors apply to text datasets");
        ModelConfig m = c.model; // reject settings that cannot work before anything is stored
        m.drivers = series.drivers();
        m.window = series.window;
        if (auto problem = m.validate(); !problem.empty())
            throw UsageError(problem);
    } else {
        dataset = DatasetCatalog::load(c.dataset, datasetOptions);
    }
    if (!regression && !c.embeddingsPath.empty()) {
        // A bad embeddings file is reported before a run is stored; the cache makes the trainer's load cheap.
        const auto embeddings = WordEmbeddings::load(c.embeddingsPath);
        const auto coverage = embeddings.coverage({&dataset.train});
        err_ << "embeddings: " << embeddings.size() << " vectors of " << embeddings.dimension() << " ("
             << embeddings.report().format << (embeddings.report().fromCache ? ", cached" : "") << "), train coverage "
             << std::fixed << std::setprecision(1) << 100.0 * coverage.typeRate() << "% of types, "
             << 100.0 * coverage.tokenRate() << "% of tokens\n";
    }
    if (!regression) {
        // Reject settings that cannot work before anything is stored.
        ModelConfig m = c.model;
        m.numClasses = dataset.numClasses();
        m.vocabularySize = static_cast<int>(Vocabulary::fromExamples(dataset.train).size());
        if (auto problem = m.validate(); !problem.empty())
            throw UsageError(problem);
    }
    RunStore store(flags.text("--db", RunStore::defaultPath()));

    // Human progress on a terminal (a bar); JSON lines when stderr is a pipe or file, for scripts and CI
    // logs. stdout stays for the final --json result.
    class TerminalProgress : public TrainingObserver {
    public:
        explicit TerminalProgress(std::ostream& err) : err_(err), tty_(isatty(STDERR_FILENO)) {}
        void onStarted(const RunInfo& info) override
        {
            if (!tty_) {
                err_ << nlohmann::json{{"event", "started"}, {"model", info.modelSummary}, {"dataset", info.config.dataset},
                                       {"device", info.device}, {"torch", info.torchVersion}, {"params", info.parameters},
                                       {"seed", info.config.seed}}.dump() << "\n";
                return;
            }
            err_ << "training " << info.modelSummary << " on " << info.config.dataset << " (" << info.device
                 << ", LibTorch " << info.torchVersion << ", " << info.parameters << " parameters, seed "
                 << info.config.seed << ")\n";
        }
        void onProgress(const ProgressEvent& e) override
        {
            const auto now = std::chrono::steady_clock::now();
            if (now - last_ < std::chrono::milliseconds(tty_ ? 100 : 2000) && e.step != e.totalSteps)
                return;
            last_ = now;
            if (tty_) {
                const int width = 30, filled = e.totalSteps ? width * e.step / e.totalSteps : 0;
                err_ << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] " << e.step << "/"
                     << e.totalSteps << " loss " << std::fixed << std::setprecision(4) << e.loss << std::flush;
            } else {
                err_ << nlohmann::json{{"event", "progress"}, {"step", e.step}, {"total", e.totalSteps}, {"loss", e.loss},
                                       {"seconds", e.elapsedSeconds}}.dump() << "\n";
            }
        }
        void onMetric(const MetricPoint& p) override
        {
            if (!tty_) {
                if (p.split != "train")
                    err_ << nlohmann::json{{"event", "metric"}, {"step", p.step}, {"split", p.split}, {"name", p.name},
                                           {"value", p.value}}.dump() << "\n";
                return;
            }
            if (p.split != "dev" || (p.name != "accuracy" && p.name != "rmse"))
                return;
            err_ << "\r" << "step " << p.step << ": dev " << p.name << " " << std::fixed
                 << std::setprecision(p.name == "accuracy" ? 2 : 4) << (p.name == "accuracy" ? 100.0 * p.value : p.value)
                 << (p.name == "accuracy" ? "%" : "") << std::string(30, ' ') << "\n";
        }

    private:
        std::ostream& err_;
        bool tty_;
        std::chrono::steady_clock::time_point last_{};
    } progress(err_);

    CancelToken cancel;
    gInterruptToken = &cancel;
    auto previous = std::signal(SIGINT, onInterrupt);
    const bool tty = isatty(STDERR_FILENO);
    std::vector<nlohmann::json> results;
    std::vector<RunSummary> summaries;
    RunStatus worst = RunStatus::Completed;
    const std::uint64_t firstSeed = c.seed;
    for (int r = 0; r < repeats && !cancel.isCancelled(); ++r) {
        TrainConfig run = c;
        run.seed = firstSeed + static_cast<std::uint64_t>(r); // repeats differ by seed only
        StoreObserver storeObserver(store);
        CompositeObserver observers({&storeObserver, &progress});
        const RunSummary summary =
            regression ? Trainer(run).run(series, observers, cancel) : Trainer(run).run(dataset, observers, cancel);
        summaries.push_back(summary);
        if (summary.status != RunStatus::Completed && worst == RunStatus::Completed)
            worst = summary.status;

        std::ostringstream line;
        line << "run " << storeObserver.runId() << " " << toString(summary.status) << " after " << summary.steps
             << " steps in " << std::fixed << std::setprecision(1) << summary.seconds << " s: ";
        if (regression)
            line << "best dev RMSE " << std::setprecision(4) << summary.bestDevRmse << " at step " << summary.bestStep
                 << ", test MAE " << summary.testMae << ", RMSE " << summary.testRmse << ", MAPE " << summary.testMape << "%";
        else
            line << "best dev " << std::setprecision(2) << 100.0 * summary.bestDevAccuracy << "% at step " << summary.bestStep
                 << ", test " << 100.0 * summary.testAccuracy << "%, macro-F1 " << 100.0 * summary.testMacroF1 << "%";
        line << (summary.message.empty() ? "" : " (" + summary.message + ")");
        if (tty)
            err_ << line.str() << "\n";
        else
            err_ << nlohmann::json{{"event", "finished"}, {"text", line.str()}}.dump() << "\n";
        nlohmann::json result{{"run_id", storeObserver.runId()}, {"status", toString(summary.status)}, {"seed", run.seed},
                              {"best_step", summary.bestStep}, {"params", summary.parameters}, {"steps", summary.steps},
                              {"seconds", summary.seconds}, {"device", summary.device}, {"db", store.path()},
                              {"message", summary.message}, {"stopped_early", summary.stoppedEarly}};
        if (regression) {
            result["dev_rmse"] = summary.bestDevRmse;
            result["test_mae"] = summary.testMae;
            result["test_rmse"] = summary.testRmse;
            result["test_mape"] = summary.testMape;
        } else {
            result["dev_accuracy"] = summary.bestDevAccuracy;
            result["test_accuracy"] = summary.testAccuracy;
            result["test_macro_f1"] = summary.testMacroF1;
            result["test_confusion"] = summary.testConfusion;
        }
        results.push_back(std::move(result));
    }
    std::signal(SIGINT, previous);
    gInterruptToken = nullptr;

    // Repeats: mean ± sample std over the completed runs, the thesis' way of reporting.
    nlohmann::json aggregate;
    if (repeats > 1) {
        std::map<std::string, std::vector<double>> values;
        for (const auto& s : summaries) {
            if (s.status != RunStatus::Completed)
                continue;
            if (regression) {
                values["test_mae"].push_back(s.testMae);
                values["test_rmse"].push_back(s.testRmse);
                values["test_mape"].push_back(s.testMape);
            } else {
                values["test_accuracy"].push_back(s.testAccuracy);
                values["test_macro_f1"].push_back(s.testMacroF1);
                values["dev_accuracy"].push_back(s.bestDevAccuracy);
            }
        }
        std::ostringstream text;
        const auto completed = std::count_if(summaries.begin(), summaries.end(),
                                             [](const RunSummary& s) { return s.status == RunStatus::Completed; });
        text << summaries.size() << " runs (" << completed << " completed), seeds " << firstSeed << ".."
             << firstSeed + repeats - 1 << ":";
        for (const auto& [name, list] : values) {
            const RepeatStatistics stats(list);
            aggregate[name] = {{"mean", stats.mean()}, {"std", stats.sampleStd()}, {"n", stats.count()}};
            const bool percent = name.find("accuracy") != std::string::npos || name.find("f1") != std::string::npos;
            text << " " << name << " " << stats.format(percent ? 100.0 : 1.0, percent ? 2 : 4) << (percent ? "%" : "");
        }
        if (tty)
            err_ << text.str() << "\n";
        else
            err_ << nlohmann::json{{"event", "repeats"}, {"text", text.str()}}.dump() << "\n";
    }
    if (json) {
        if (repeats > 1)
            out_ << nlohmann::json{{"runs", results}, {"aggregate", aggregate}}.dump() << "\n";
        else
            out_ << results.front().dump() << "\n";
    }
    switch (worst) {
    case RunStatus::Completed: return 0;
    case RunStatus::Cancelled: return 130;
    case RunStatus::Diverged: return 3;
    default: return 1;
    }
}

} // namespace attnlab
