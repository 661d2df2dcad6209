#include "cli/commands/TrainCommand.h"

#include "cli/CliFlags.h"
#include "cli/ConfigFlags.h"
#include "core/platform/InterruptGuard.h"
#include "cli/TerminalProgress.h"
#include "core/config/Registry.h"
#include "core/config/TrainPreset.h"
#include "core/data/DataLocator.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/WordEmbeddings.h"
#include "core/results/RunResult.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/results/CompositeObserver.h"
#include "core/training/ComputeDevice.h"
#include "core/training/Trainer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace attnlab {
namespace {

CliFlags trainFlags(const std::vector<std::string>& args)
{
    auto valued = ConfigFlags::modelFlags();
    valued.insert({"--steps", "--seed", "--db", "--device", "--batch-size", "--eval-every", "--optimizer", "--lr",
                   "--threads", "--sampling", "--config", "--preset", "--repeat", "--momentum", "--l2", "--weight-decay", "--weight-decay-on", "--adam-beta2", "--min-lr",
                   "--lr-schedule", "--lr-decay-every", "--lr-decay-gamma", "--warmup-steps", "--clip-norm", "--epochs",
                   "--patience", "--log-every", "--checkpoint-dir", "--tags", "--probes", "--teacher-forcing",
                   "--label-smoothing", "--beam", "--length-penalty", "--sample-tokens"});
    valued.insert(ConfigFlags::datasetFlags().begin(), ConfigFlags::datasetFlags().end());
    valued.insert({"--embeddings", "--oov-range"});
    auto booleans = ConfigFlags::datasetSwitches();
    booleans.insert({"--json", "--embeddings-frozen", "--amp", "--capturable-step", "--tf32", "--deterministic", "--gradient-norms", "--no-checkpoint",
                     "--uniform-attention", "--frozen-encoder", "--attention-only", "--unscaled", "--no-residual"});
    return CliFlags(args, valued, booleans);
}

// The base every flag overrides: a preset, a config file, or none (the defaults).
std::optional<TrainPreset> presetOrConfig(const CliFlags& flags)
{
    if (flags.has("--preset") && flags.has("--config"))
        throw CliUsageError("--preset and --config: give one of them");
    if (flags.has("--preset")) {
        const TrainPreset* preset = TrainPreset::find(flags.required("--preset"));
        if (!preset) {
            std::string names;
            for (const auto& p : TrainPreset::all())
                names += (names.empty() ? "" : ", ") + p.name;
            throw CliUsageError("unknown preset '" + flags.required("--preset") + "' (known: " + names + ")");
        }
        return *preset;
    }
    if (flags.has("--config")) {
        try {
            return TrainPreset::fromFile(flags.required("--config"));
        } catch (const std::invalid_argument& e) {
            throw CliUsageError(std::string("--config ") + e.what());
        }
    }
    return std::nullopt;
}

// The schedule and the optimiser. A new optimiser (or no base) starts from its own default learning rate;
// a base's rate stays only with the base's optimiser.
void applyTrainingFlags(TrainConfig& c, const CliFlags& flags, bool hasBase)
{
    flags.update("--steps", c.steps);
    c.epochs = static_cast<int>(flags.integer("--epochs", flags.has("--steps") ? 0 : c.epochs));
    flags.update("--seed", c.seed);
    flags.update("--device", c.device);
    flags.update("--batch-size", c.batchSize);
    flags.update("--sampling", c.sampling);
    flags.update("--eval-every", c.evalEvery);
    flags.update("--log-every", c.logEvery);
    flags.update("--patience", c.patience);
    const std::string optimizerBefore = c.optimizer;
    flags.update("--optimizer", c.optimizer);
    const bool optimizerChanged = c.optimizer != optimizerBefore || !hasBase;
    c.learningRate =
        flags.real("--lr", optimizerChanged ? TrainConfig::defaultLearningRate(c.optimizer) : c.learningRate);
    flags.update("--momentum", c.momentum);
    flags.update("--l2", c.l2);
    flags.update("--weight-decay", c.weightDecay);
    flags.update("--weight-decay-on", c.weightDecayOn);
    flags.update("--adam-beta2", c.adamBeta2);
    flags.update("--min-lr", c.minLearningRate);
    flags.update("--lr-schedule", c.lrSchedule);
    flags.update("--lr-decay-every", c.lrDecayEvery);
    flags.update("--lr-decay-gamma", c.lrDecayGamma);
    flags.update("--warmup-steps", c.warmupSteps);
    flags.update("--clip-norm", c.clipNorm);
    flags.update("--teacher-forcing", c.teacherForcing);
    flags.update("--label-smoothing", c.labelSmoothing);
    flags.update("--beam", c.beamSize);
    flags.update("--length-penalty", c.lengthPenalty);
    flags.update("--sample-tokens", c.sampleTokens);
    c.model.attentionOnly = c.model.attentionOnly || flags.has("--attention-only");
    c.model.scaled = c.model.scaled && !flags.has("--unscaled");
    flags.update("--layer-norm", c.model.layerNorm);
    flags.update("--attention-window", c.model.attentionWindow);
    flags.update("--global-tokens", c.model.globalTokens);
    c.model.residual = c.model.residual && !flags.has("--no-residual");
    c.amp = c.amp || flags.has("--amp");
    c.capturableStep = c.capturableStep || flags.has("--capturable-step");
    c.tf32 = c.tf32 || flags.has("--tf32");
    c.model.uniformAttention = c.model.uniformAttention || flags.has("--uniform-attention");
    c.model.frozenEncoder = c.model.frozenEncoder || flags.has("--frozen-encoder");
    c.deterministic = c.deterministic || flags.has("--deterministic");
    c.gradientNorms = c.gradientNorms || flags.has("--gradient-norms");
    flags.update("--threads", c.threads);
}

// A run's --json object: RunResult's fields (the same as runs list --json) plus where the run is.
nlohmann::json resultJson(std::int64_t runId, const RunSummary& summary, std::uint64_t seed, const std::string& db)
{
    auto o = nlohmann::json::parse(RunResult(summary).toJson(true));
    o["run_id"] = runId;
    o["seed"] = seed;
    o["db"] = db;
    // train --json has always named the best dev figure dev_accuracy / dev_rmse (the tests and the
    // README read them): kept as aliases of best_dev_accuracy / best_dev_rmse.
    if (summary.regression)
        o["dev_rmse"] = o["best_dev_rmse"];
    else
        o["dev_accuracy"] = o["best_dev_accuracy"];
    return o;
}

} // namespace

int TrainCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags = trainFlags(args);
    Plan plan = planFrom(flags);
    const LoadedDataset data = loadChecked(plan);
    RunStore store(flags.text("--db", RunStore::defaultPath()));
    // Every run can be explored later: its weights go next to the store unless the user says otherwise.
    if (plan.keepCheckpoints && plan.config.checkpointDir.empty())
        plan.config.checkpointDir = RunStore::checkpointFolderOf(store.path());
    TerminalProgress progress(err_);
    for (const auto& note : data.notes()) // what reading the files found: filled cells, skipped columns, ...
        progress.report("note", note);
    const std::vector<Repeat> repeats = runRepeats(plan, data, store, progress);
    const auto statistics = repeatStatistics(repeats);
    if (plan.repeats > 1)
        reportRepeats(plan, repeats, statistics, progress);
    if (flags.has("--json")) {
        if (plan.repeats > 1) {
            nlohmann::json runs = nlohmann::json::array(), aggregate;
            for (const auto& r : repeats)
                runs.push_back(resultJson(r.runId, r.summary, r.seed, store.path()));
            for (const auto& [name, stats] : statistics)
                aggregate[name] = {{"mean", stats.mean()}, {"std", stats.sampleStd()}, {"n", stats.count()}};
            out_ << nlohmann::json{{"runs", runs}, {"aggregate", aggregate}}.dump() << "\n";
        } else {
            const Repeat& r = repeats.front();
            out_ << resultJson(r.runId, r.summary, r.seed, store.path()).dump() << "\n";
        }
    }
    return exitCode(repeats);
}

TrainCommand::Plan TrainCommand::planFrom(const CliFlags& flags)
{
    const std::optional<TrainPreset> base = presetOrConfig(flags);
    Plan plan;
    TrainConfig& c = plan.config;
    c = base ? base->config : TrainConfig{};
    c.model = ConfigFlags::modelConfig(flags, base ? &base->config.model : nullptr);
    c.dataset = flags.text("--dataset", base ? c.dataset : std::string());
    // A preset's model changed on the command line keeps the preset's position only where the new model takes
    // it ("--preset table5.3-ssan-rpr --model lstm" is an LSTM, with no position technique).
    if (base && flags.has("--model") && !flags.has("--position")) {
        const ModelSpec* entry = Registry::model(c.model.model);
        if (entry && std::find(entry->positions.begin(), entry->positions.end(), c.model.position) == entry->positions.end())
            c.model.position.clear();
    }
    ConfigFlags::fillDefaults(c.dataset, c.model);
    ConfigFlags::checkIds(c.dataset, c.model.model, c.model.position);
    // The data flags override the base's data settings, and the stored config says how the data was read.
    ConfigFlags::applyDataFlags(flags, c);
    plan.datasetOptions = c.datasetOptions();
    const DatasetOptions fromFlags = ConfigFlags::datasetOptions(flags);
    plan.datasetOptions.seed = fromFlags.seed; // the generators' knobs that only the command line sets
    plan.datasetOptions.minFillers = fromFlags.minFillers;
    plan.datasetOptions.maxFillers = fromFlags.maxFillers;
    flags.update("--embeddings", c.embeddingsPath);
    c.embeddingsFrozen = c.embeddingsFrozen || flags.has("--embeddings-frozen");
    flags.update("--oov-range", c.oovRange);
    flags.update("--checkpoint-dir", c.checkpointDir);
    if (flags.has("--no-checkpoint") && flags.has("--checkpoint-dir"))
        throw CliUsageError("--no-checkpoint and --checkpoint-dir: give one of them");
    plan.keepCheckpoints = !flags.has("--no-checkpoint");
    if (!plan.keepCheckpoints)
        c.checkpointDir.clear();
    if (flags.has("--tags"))
        plan.tags = flags.list("--tags");
    if (flags.has("--probes")) { // "first sentence; second sentence": whose attention every evaluation records
        c.probes.clear();
        std::string text = flags.required("--probes") + ";";
        for (std::size_t start = 0, end; (end = text.find(';', start)) != std::string::npos; start = end + 1) {
            std::string probe = text.substr(start, end - start);
            probe.erase(0, probe.find_first_not_of(" \t"));
            probe.erase(probe.find_last_not_of(" \t") + 1);
            if (!probe.empty())
                c.probes.push_back(probe);
        }
        if (c.probes.empty())
            throw CliUsageError("--probes: give sentences separated by ';', e.g. --probes \"not bad at all; a bad film\"");
    }
    applyTrainingFlags(c, flags, base.has_value());
    plan.repeats = static_cast<int>(flags.integer("--repeat", base ? base->repeats : 1));
    if (plan.repeats < 1)
        throw CliUsageError("--repeat: at least 1 run (got " + std::to_string(plan.repeats) + ")");
    if (!c.embeddingsPath.empty())
        c.embeddingsPath = DataLocator::locateFile(c.embeddingsPath, c.dataDir); // a preset's path is relative to the data folder
    if (auto problem = c.validate(); !problem.empty())
        throw CliUsageError(ConfigFlags::inFlagTerms(problem, flags));
    // The model's own settings too, before any data is read: the sizes the data will set are stood in for
    // here (modelFor checks them for real once it is read).
    ModelConfig shape = c.model;
    if (DatasetCatalog::isRegression(c.dataset)) {
        shape.drivers = std::max(1, shape.drivers);
        shape.window = std::max(2, c.window);
    } else if (DatasetCatalog::isLanguageModel(c.dataset)) {
        shape.vocabularySize = std::max(2, shape.vocabularySize);
    } else if (DatasetCatalog::isTranslation(c.dataset)) {
        shape.vocabularySize = std::max(3, shape.vocabularySize);
        shape.targetVocabularySize = std::max(5, shape.targetVocabularySize);
    } else {
        shape.numClasses = std::max(2, shape.numClasses);
        shape.vocabularySize = std::max(3, shape.vocabularySize);
    }
    if (auto problem = shape.validate(); !problem.empty())
        throw CliUsageError(ConfigFlags::inFlagTerms(problem, flags));
    if (c.device != "auto")
        ComputeDevice::resolve(c.device); // fail before opening anything
    return plan;
}

LoadedDataset TrainCommand::loadChecked(const Plan& plan)
{
    const TrainConfig& c = plan.config;
    LoadedDataset data = DatasetCatalog::loadAny(c.dataset, plan.datasetOptions);
    if (data.regression && !c.embeddingsPath.empty())
        throw CliUsageError("--embeddings: '" + c.dataset + "' is a time series; word vectors apply to text datasets");
    if (data.languageModel && !c.embeddingsPath.empty())
        throw CliUsageError("--embeddings: '" + c.dataset + "' is a language-model dataset; a language model learns its own token table");
    if (data.translation && !c.embeddingsPath.empty())
        throw CliUsageError("--embeddings: '" + c.dataset + "' is a translation dataset; a translation model learns both word tables");
    if (!data.regression && !c.embeddingsPath.empty()) {
        // A bad embeddings file is reported before a run is stored; the cache makes the trainer's load cheap.
        const auto embeddings = WordEmbeddings::load(c.embeddingsPath);
        const auto coverage = embeddings.coverage({&data.text.train});
        err_ << "embeddings: " << embeddings.size() << " vectors of " << embeddings.dimension() << " ("
             << embeddings.report().format << (embeddings.report().fromCache ? ", cached" : "") << "), train coverage "
             << std::fixed << std::setprecision(1) << 100.0 * coverage.typeRate() << "% of types, "
             << 100.0 * coverage.tokenRate() << "% of tokens\n";
    }
    ConfigFlags::modelFor(c.model, data); // only the check: the trainer completes the model itself
    return data;
}

std::vector<TrainCommand::Repeat> TrainCommand::runRepeats(const Plan& plan, const LoadedDataset& data, RunStore& store,
                                                           TerminalProgress& progress)
{
    std::vector<Repeat> repeats;
    CancelToken cancel;
    const InterruptGuard interrupt(cancel);
    for (int r = 0; r < plan.repeats && !cancel.isCancelled(); ++r) {
        TrainConfig config = plan.config;
        config.seed = plan.config.seed + static_cast<std::uint64_t>(r); // repeats differ by seed only
        Repeat repeat;
        {
            StoreObserver storeObserver(store);
            CompositeObserver observers({&storeObserver, &progress});
            repeat.summary = Trainer(config).run(data, observers, cancel);
            repeat.runId = storeObserver.runId();
        } // the observer's writer has committed everything: the tags land on the finished row
        if (!plan.tags.empty())
            store.setTags(repeat.runId, plan.tags); // e.g. sweep:<id> from attnlab-cli sweep
        repeat.seed = config.seed;
        progress.report("finished", "run " + std::to_string(repeat.runId) + " " + RunResult(repeat.summary).sentence());
        repeats.push_back(std::move(repeat));
    }
    return repeats;
}

std::map<std::string, RepeatStatistics> TrainCommand::repeatStatistics(const std::vector<Repeat>& repeats)
{
    std::map<std::string, std::vector<double>> values;
    for (const auto& r : repeats) {
        const RunSummary& s = r.summary;
        if (s.status != RunStatus::Completed)
            continue;
        if (s.languageModel) {
            values["test_loss"].push_back(s.testLoss);
            values["test_bits_per_token"].push_back(s.testBitsPerToken);
            values["dev_loss"].push_back(s.bestDevLoss);
        } else if (s.translation) {
            values["test_bleu"].push_back(s.testBleu);
            values["test_chrf"].push_back(s.testChrf);
            values["dev_bleu"].push_back(s.bestDevBleu);
        } else if (s.regression) {
            values["test_mae"].push_back(s.testMae);
            values["test_rmse"].push_back(s.testRmse);
            values["test_mape"].push_back(s.testMape);
        } else {
            values["test_accuracy"].push_back(s.testAccuracy);
            values["test_macro_f1"].push_back(s.testMacroF1);
            values["dev_accuracy"].push_back(s.bestDevAccuracy);
        }
    }
    std::map<std::string, RepeatStatistics> statistics;
    for (auto& [name, list] : values)
        statistics.emplace(name, RepeatStatistics(std::move(list)));
    return statistics;
}

void TrainCommand::reportRepeats(const Plan& plan, const std::vector<Repeat>& repeats,
                                 const std::map<std::string, RepeatStatistics>& statistics, TerminalProgress& progress)
{
    const auto completed = std::count_if(repeats.begin(), repeats.end(),
                                         [](const Repeat& r) { return r.summary.status == RunStatus::Completed; });
    const std::uint64_t firstSeed = plan.config.seed;
    std::ostringstream text;
    text << repeats.size() << " runs (" << completed << " completed), seeds " << firstSeed << ".."
         << firstSeed + plan.repeats - 1 << ":";
    for (const auto& [name, stats] : statistics) {
        const bool percent = name.find("accuracy") != std::string::npos || name.find("f1") != std::string::npos;
        text << " " << name << " " << stats.format(percent ? 100.0 : 1.0, percent ? 2 : 4) << (percent ? "%" : "");
    }
    progress.report("repeats", text.str());
}

int TrainCommand::exitCode(const std::vector<Repeat>& repeats)
{
    for (const auto& r : repeats) {
        switch (r.summary.status) {
        case RunStatus::Completed: continue;
        case RunStatus::Cancelled: return 130;
        case RunStatus::Diverged: return 3;
        default: return 1;
        }
    }
    return 0;
}

} // namespace attnlab
