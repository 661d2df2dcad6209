#include "cli/commands/BenchCommand.h"

#include "cli/CliFlags.h"
#include "cli/commands/LengthBenchCommand.h"
#include "core/config/DeviceSetting.h"
#include "core/data/DatasetCatalog.h"
#include "core/store/RunStore.h"
#include "core/training/ComputeDevice.h"
#include "core/training/ModelCharacteristics.h"
#include "core/platform/ChildProcess.h"
#include "core/platform/ExecutablePath.h"
#include "core/platform/Terminal.h"
#include "core/results/RunInfo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <climits>
#include <stdexcept>

namespace attnlab {
namespace {

// Runs this program again with args, its stderr on ours (progress, errors); returns its stdout. Throws
// when it cannot start or does not exit with 0.
std::string runThisProgram(const std::vector<std::string>& args)
{
    const std::string program = ExecutablePath::current();
    if (program.empty())
        throw std::runtime_error("bench: cannot find this program (/proc/self/exe)");
    std::vector<std::string> argv = {program};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildProcess::Captured ran;
    try {
        ran = ChildProcess::captureOut(argv);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(std::string("bench: ") + e.what());
    }
    if (ran.signal != 0 || ran.exitCode != 0)
        throw std::runtime_error("bench: measuring '" + args.at(2) + "' in its own process failed (" +
                                 (ran.signal == 0 ? "exit " + std::to_string(ran.exitCode)
                                                  : "signal " + std::to_string(ran.signal)) +
                                 ")");
    return ran.out;
}

} // namespace

int BenchCommand::run(const std::vector<std::string>& args)
{
    if (std::find(args.begin(), args.end(), "--lengths") != args.end())
        return LengthBenchCommand(out_, err_).run(args); // attention's price by length: another protocol
    const CliFlags flags(args,
                         {"--models", "--device", "--epochs", "--passes", "--dataset", "--data-dir", "--d-model", "--threads",
                          "--batch-size", "--seed", "--db"},
                         {"--json", "--no-store", "--one-process"});
    ModelCharacteristics::Settings settings;
    flags.update("--epochs", settings.epochs);
    flags.update("--passes", settings.predictPasses);
    flags.update("--batch-size", settings.batchSize);
    flags.update("--threads", settings.threads);
    flags.update("--seed", settings.seed);
    flags.update("--device", settings.device);
    if (settings.epochs < 1)
        throw CliUsageError("--epochs: at least 1 (the thesis ran 10)");
    if (settings.predictPasses < 0)
        throw CliUsageError("--passes: 0 or more (the thesis ran 10)");
    if (settings.batchSize < 1)
        throw CliUsageError("--batch-size: at least 1 (the thesis used 32)");
    if (auto problem = DeviceSetting::problem(settings.device); !problem.empty())
        throw CliUsageError("--" + problem);
    const int dModel = static_cast<int>(flags.integer("--d-model", 300));
    if (dModel < 1)
        throw CliUsageError("--d-model: at least 1 (the thesis used 300)");
    const std::string datasetId = flags.text("--dataset", "sst-fine");
    if (DatasetCatalog::isRegression(datasetId))
        throw CliUsageError("--dataset: '" + datasetId + "' is a time series; the Table 5.4 protocol is for sentence classifiers");

    const auto all = ModelCharacteristics::thesisModels(dModel);
    std::vector<ModelCharacteristics::ThesisModel> chosen;
    if (flags.has("--models")) {
        for (const auto& id : flags.list("--models")) {
            auto it = std::find_if(all.begin(), all.end(), [&](const auto& m) { return m.id == id; });
            if (it == all.end()) {
                std::string known;
                for (const auto& m : all)
                    known += (known.empty() ? "" : ", ") + m.id;
                throw CliUsageError("--models: unknown model '" + id + "' (known: " + known + ")");
            }
            chosen.push_back(*it);
        }
    } else {
        chosen = all;
    }
    if (settings.device != "auto")
        ComputeDevice::resolve(settings.device); // fail before loading anything

    DatasetOptions options;
    options.dataDir = flags.text("--data-dir", "");
    const TextDataset dataset = DatasetCatalog::load(datasetId, options); // also checks it before any child starts
    std::unique_ptr<RunStore> store;
    if (!flags.has("--no-store"))
        store = std::make_unique<RunStore>(flags.text("--db", RunStore::defaultPath()));

    ComputeDevice::setThreads(settings.threads); // before describing the device, which names the thread count
    const bool json = flags.has("--json");
    const bool tty = Terminal::isTerminal(Terminal::Stream::Error);
    const int perEpoch = static_cast<int>((dataset.train.size() + settings.batchSize - 1) / settings.batchSize);
    std::ostringstream what;
    what << "model characteristics (thesis Table 5.4 protocol) on " << datasetId << ": train " << settings.epochs
         << " epoch" << (settings.epochs == 1 ? "" : "s") << " x " << perEpoch << " batches of " << settings.batchSize
         << " (Adam, shuffled length-bucketed epochs), predict dev " << settings.predictPasses << " times in batches of "
         << settings.batchSize << "; d_model " << dModel << ", random word vectors; device "
         << ComputeDevice::describe(ComputeDevice::resolve(settings.device)) << ", LibTorch " << ComputeDevice::torchVersion();
    if (!json)
        out_ << what.str() << "\n"
             << std::left << std::setw(22) << "model" << std::right << std::setw(11) << "params" << std::setw(11)
             << "peak MiB" << std::setw(12) << "train s" << std::setw(11) << "s/epoch" << std::setw(12) << "predict s"
             << std::setw(11) << "last loss" << "\n";

    // Each model in a fresh process of this program unless asked otherwise: the resident-set peak of one
    // model must not include what an earlier model left in the allocator's free lists.
    const bool isolate = chosen.size() > 1 && !flags.has("--one-process");
    auto measureHere = [&](const ModelCharacteristics::ThesisModel& m) {
        auto lastShown = std::chrono::steady_clock::now();
        auto progress = [&](int done, int total) {
            const auto now = std::chrono::steady_clock::now();
            if (!tty || (now - lastShown < std::chrono::milliseconds(200) && done != total))
                return;
            lastShown = now;
            err_ << "\r" << m.id << ": batch " << done << "/" << total << std::flush;
        };
        const auto r = ModelCharacteristics::measure(m.config, dataset, settings, progress);
        if (tty)
            err_ << "\r" << std::string(60, ' ') << "\r" << std::flush;
        return nlohmann::json{{"id", m.id}, {"label", m.label}, {"params", r.parameters}, {"peak_memory_mib", r.peakMemoryMb},
                              {"baseline_memory_mib", r.baselineMemoryMb}, {"memory", r.memoryKind},
                              {"train_seconds", r.trainSeconds}, {"train_batches", r.trainBatches},
                              {"epochs", settings.epochs}, {"seconds_per_epoch", r.trainSeconds / settings.epochs},
                              {"predict_seconds", r.predictSeconds}, {"predict_batches", r.predictBatches},
                              {"last_train_loss", r.lastTrainLoss}, {"device", r.device}, {"summary", r.summary},
                              {"process", chosen.size() == 1 ? "own" : "shared"}};
    };
    auto measureInChild = [&](const ModelCharacteristics::ThesisModel& m) {
        std::vector<std::string> childArgs = {"bench", "--models", m.id, "--one-process", "--no-store", "--json",
                                              "--epochs", std::to_string(settings.epochs), "--passes",
                                              std::to_string(settings.predictPasses), "--batch-size",
                                              std::to_string(settings.batchSize), "--threads", std::to_string(settings.threads),
                                              "--seed", std::to_string(settings.seed), "--device", settings.device,
                                              "--dataset", datasetId, "--d-model", std::to_string(dModel)};
        if (!options.dataDir.empty())
            childArgs.insert(childArgs.end(), {"--data-dir", options.dataDir});
        const std::string output = runThisProgram(childArgs);
        nlohmann::json o;
        try {
            o = nlohmann::json::parse(output).at("models").at(0);
        } catch (const std::exception&) {
            throw std::runtime_error("bench: the process measuring '" + m.id + "' gave no result");
        }
        o["process"] = "own";
        return o;
    };

    nlohmann::json results = nlohmann::json::array();
    for (const auto& m : chosen) {
        nlohmann::json o = isolate ? measureInChild(m) : measureHere(m);
        std::int64_t runId = 0;
        if (store) {
            RunInfo info;
            info.config.dataset = datasetId;
            info.config.model = m.config;
            info.config.optimizer = "adam";
            info.config.learningRate = settings.learningRate;
            info.config.batchSize = settings.batchSize;
            info.config.sampling = "epochs";
            info.config.epochs = settings.epochs;
            info.config.steps = o["train_batches"].get<int>();
            info.config.seed = settings.seed;
            info.config.device = settings.device;
            info.config.threads = settings.threads;
            info.device = o["device"].get<std::string>();
            info.torchVersion = ComputeDevice::torchVersion();
            info.parameters = o["params"].get<std::int64_t>();
            info.modelSummary = o["summary"].get<std::string>();
            runId = store->beginRun(info);
            store->appendCharacteristics(runId, {{"params", o["params"].get<double>(), ""},
                                                 {"peak_memory", o["peak_memory_mib"].get<double>(), "MiB"},
                                                 {"baseline_memory", o["baseline_memory_mib"].get<double>(), "MiB"},
                                                 {"train_seconds", o["train_seconds"].get<double>(), "s"},
                                                 {"train_batches", o["train_batches"].get<double>(), ""},
                                                 {"epochs", static_cast<double>(settings.epochs), ""},
                                                 {"predict_seconds", o["predict_seconds"].get<double>(), "s"},
                                                 {"predict_batches", o["predict_batches"].get<double>(), ""},
                                                 {"last_train_loss", o["last_train_loss"].get<double>(), ""}});
            store->setTags(runId, {"bench", "table5.4"});
            store->setNotes(runId, m.label + ": " + what.str() + "; memory: " + o["memory"].get<std::string>() +
                                       (o["process"] == "own" ? ", measured in its own process" : ""));
            RunSummary summary;
            summary.status = RunStatus::Completed;
            summary.steps = o["train_batches"].get<int>();
            summary.seconds = o["train_seconds"].get<double>() + o["predict_seconds"].get<double>();
            summary.parameters = o["params"].get<std::int64_t>();
            summary.device = o["device"].get<std::string>();
            summary.message = "model characteristics only: no dev or test evaluation";
            store->finishRun(runId, summary);
        }
        o["run_id"] = runId;
        if (!json)
            out_ << std::left << std::setw(22) << m.id << std::right << std::setw(11) << o["params"].get<std::int64_t>()
                 << std::fixed << std::setprecision(0) << std::setw(11) << o["peak_memory_mib"].get<double>()
                 << std::setprecision(1) << std::setw(12) << o["train_seconds"].get<double>() << std::setw(11)
                 << o["seconds_per_epoch"].get<double>() << std::setprecision(2) << std::setw(12)
                 << o["predict_seconds"].get<double>() << std::setprecision(3) << std::setw(11)
                 << o["last_train_loss"].get<double>() << std::endl;
        results.push_back(std::move(o));
    }
    if (json) {
        out_ << nlohmann::json{{"protocol", what.str()}, {"dataset", datasetId}, {"d_model", dModel},
                               {"batch_size", settings.batchSize}, {"epochs", settings.epochs},
                               {"passes", settings.predictPasses}, {"models", results},
                               {"db", store ? store->path() : ""}}.dump()
             << "\n";
    } else {
        out_ << "train: " << (chosen.empty() ? 0 : results.front()["train_batches"].get<int>()) << " batches per model; predict: "
             << (chosen.empty() ? 0 : results.front()["predict_batches"].get<int>())
             << " batches per model; peak MiB = resident set high-water mark while training (includes the dataset and "
                "LibTorch), "
             << (isolate ? "each model in its own process" : "all models in one process (later peaks include earlier leftovers)")
             << (store ? "; stored in " + store->path() + " (runs list --tag bench)" : "") << "\n";
    }
    return 0;
}

} // namespace attnlab
