#include "core/BenchCommand.h"

#include "core/CliFlags.h"
#include "core/ComputeDevice.h"
#include "core/DatasetCatalog.h"
#include "core/ModelCharacteristics.h"
#include "core/RunInfo.h"
#include "core/RunStore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace attnlab {
namespace {

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ','))
        if (!item.empty())
            items.push_back(item);
    return items;
}

} // namespace

BenchCommand::BenchCommand(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}

int BenchCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args,
                         {"--models", "--device", "--epochs", "--passes", "--dataset", "--data-dir", "--d-model", "--threads",
                          "--batch-size", "--seed", "--db"},
                         {"--json", "--no-store"});
    ModelCharacteristics::Settings settings;
    settings.epochs = static_cast<int>(flags.integer("--epochs", settings.epochs));
    settings.predictPasses = static_cast<int>(flags.integer("--passes", settings.predictPasses));
    settings.batchSize = static_cast<int>(flags.integer("--batch-size", settings.batchSize));
    settings.threads = static_cast<int>(flags.integer("--threads", settings.threads));
    settings.seed = static_cast<std::uint64_t>(flags.integer("--seed", static_cast<long long>(settings.seed)));
    settings.device = flags.text("--device", settings.device);
    if (settings.epochs < 1)
        throw CliUsageError("--epochs: at least 1 (the thesis ran 10)");
    if (settings.predictPasses < 0)
        throw CliUsageError("--passes: 0 or more (the thesis ran 10)");
    if (settings.batchSize < 1)
        throw CliUsageError("--batch-size: at least 1 (the thesis used 32)");
    if (settings.device != "auto" && settings.device != "cpu" && settings.device != "cuda")
        throw CliUsageError("--device expects auto, cpu or cuda, got '" + settings.device + "'");
    const int dModel = static_cast<int>(flags.integer("--d-model", 300));
    if (dModel < 1)
        throw CliUsageError("--d-model: at least 1 (the thesis used 300)");
    const std::string datasetId = flags.text("--dataset", "sst-fine");
    if (DatasetCatalog::isRegression(datasetId))
        throw CliUsageError("--dataset: '" + datasetId + "' is a time series; the Table 5.4 protocol is for sentence classifiers");

    const auto all = ModelCharacteristics::thesisModels(dModel);
    std::vector<ModelCharacteristics::ThesisModel> chosen;
    if (flags.has("--models")) {
        for (const auto& id : splitList(flags.required("--models"))) {
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
    if (settings.device == "cuda")
        ComputeDevice::resolve("cuda"); // fail before loading anything

    DatasetOptions options;
    options.dataDir = flags.text("--data-dir", "");
    const TextDataset dataset = DatasetCatalog::load(datasetId, options);
    std::unique_ptr<RunStore> store;
    if (!flags.has("--no-store"))
        store = std::make_unique<RunStore>(flags.text("--db", RunStore::defaultPath()));

    ComputeDevice::setThreads(settings.threads); // before describing the device, which names the thread count
    const bool json = flags.has("--json");
    const bool tty = isatty(STDERR_FILENO);
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

    nlohmann::json results = nlohmann::json::array();
    for (const auto& m : chosen) {
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
        const double perEpochSeconds = r.trainSeconds / settings.epochs;
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
            info.config.steps = r.trainBatches;
            info.config.seed = settings.seed;
            info.config.device = settings.device;
            info.config.threads = settings.threads;
            info.device = r.device;
            info.torchVersion = ComputeDevice::torchVersion();
            info.parameters = r.parameters;
            info.modelSummary = r.summary;
            runId = store->beginRun(info);
            store->appendCharacteristics(runId, {{"params", static_cast<double>(r.parameters), ""},
                                                 {"peak_memory", r.peakMemoryMb, "MiB"},
                                                 {"baseline_memory", r.baselineMemoryMb, "MiB"},
                                                 {"train_seconds", r.trainSeconds, "s"},
                                                 {"train_batches", static_cast<double>(r.trainBatches), ""},
                                                 {"epochs", static_cast<double>(settings.epochs), ""},
                                                 {"predict_seconds", r.predictSeconds, "s"},
                                                 {"predict_batches", static_cast<double>(r.predictBatches), ""},
                                                 {"last_train_loss", r.lastTrainLoss, ""}});
            store->setTags(runId, {"bench", "table5.4"});
            store->setNotes(runId, m.label + ": " + what.str() + "; memory: " + r.memoryKind);
            RunSummary summary;
            summary.status = RunStatus::Completed;
            summary.steps = r.trainBatches;
            summary.seconds = r.trainSeconds + r.predictSeconds;
            summary.parameters = r.parameters;
            summary.device = r.device;
            summary.message = "model characteristics only: no dev or test evaluation";
            store->finishRun(runId, summary);
        }
        nlohmann::json o{{"id", m.id}, {"label", m.label}, {"params", r.parameters}, {"peak_memory_mib", r.peakMemoryMb},
                         {"baseline_memory_mib", r.baselineMemoryMb}, {"memory", r.memoryKind},
                         {"train_seconds", r.trainSeconds}, {"train_batches", r.trainBatches}, {"epochs", settings.epochs},
                         {"seconds_per_epoch", perEpochSeconds}, {"predict_seconds", r.predictSeconds},
                         {"predict_batches", r.predictBatches}, {"last_train_loss", r.lastTrainLoss},
                         {"device", r.device}, {"run_id", runId}};
        results.push_back(o);
        if (!json)
            out_ << std::left << std::setw(22) << m.id << std::right << std::setw(11) << r.parameters << std::fixed
                 << std::setprecision(0) << std::setw(11) << r.peakMemoryMb << std::setprecision(1) << std::setw(12)
                 << r.trainSeconds << std::setw(11) << perEpochSeconds << std::setprecision(2) << std::setw(12)
                 << r.predictSeconds << std::setprecision(3) << std::setw(11) << r.lastTrainLoss << std::endl;
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
                "LibTorch)"
             << (store ? "; stored in " + store->path() + " (runs list --tag bench)" : "") << "\n";
    }
    return 0;
}

} // namespace attnlab
