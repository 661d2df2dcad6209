#include "core/CliApp.h"

#include "core/CompositeObserver.h"
#include "core/ComputeDevice.h"
#include "core/DatasetCatalog.h"
#include "core/Registry.h"
#include "core/RunStore.h"
#include "core/StoreObserver.h"
#include "core/TextClassifier.h"
#include "core/Trainer.h"
#include "core/Vocabulary.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>
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

struct UsageError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// --flag value pairs and boolean --flags; anything else is a usage error naming it.
class Flags {
public:
    Flags(const std::vector<std::string>& args, const std::set<std::string>& valued, const std::set<std::string>& booleans)
    {
        for (std::size_t i = 1; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (booleans.count(a)) {
                values_[a] = "1";
            } else if (valued.count(a)) {
                if (i + 1 >= args.size())
                    throw UsageError(a + " needs a value");
                values_[a] = args[++i];
            } else {
                throw UsageError("unknown option '" + a + "' for '" + args[0] + "'");
            }
        }
    }
    bool has(const std::string& f) const { return values_.count(f) > 0; }
    std::string text(const std::string& f, const std::string& fallback) const
    {
        auto it = values_.find(f);
        return it == values_.end() ? fallback : it->second;
    }
    std::string required(const std::string& f) const
    {
        if (!has(f))
            throw UsageError(f + " is required");
        return values_.at(f);
    }
    long long integer(const std::string& f, long long fallback) const
    {
        if (!has(f))
            return fallback;
        const std::string& v = values_.at(f);
        std::size_t used = 0;
        long long n = 0;
        try {
            n = std::stoll(v, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != v.size() || v.empty())
            throw UsageError(f + " expects an integer, got '" + v + "'");
        return n;
    }
    double real(const std::string& f, double fallback) const
    {
        if (!has(f))
            return fallback;
        const std::string& v = values_.at(f);
        std::size_t used = 0;
        double n = 0;
        try {
            n = std::stod(v, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != v.size() || v.empty())
            throw UsageError(f + " expects a number, got '" + v + "'");
        return n;
    }

private:
    std::map<std::string, std::string> values_;
};

const std::set<std::string> kModelFlags = {"--dataset", "--model", "--position", "--d-model", "--layers", "--rpr-clip",
                                           "--ff-hidden", "--dropout-keep"};

void checkIds(const std::string& dataset, const std::string& model, const std::string& position)
{
    if (!Registry::find(Registry::datasets(), dataset))
        throw UsageError("unknown dataset '" + dataset + "' (known: " + Registry::idList(Registry::datasets()) + ")");
    if (!Registry::find(Registry::models(), model))
        throw UsageError("unknown model '" + model + "' (known: " + Registry::idList(Registry::models()) + ")");
    if (!Registry::find(Registry::positions(), position))
        throw UsageError("unknown position technique '" + position + "' (known: " + Registry::idList(Registry::positions()) + ")");
}

ModelConfig modelConfigFrom(const Flags& flags)
{
    ModelConfig m;
    m.model = flags.required("--model");
    m.position = flags.required("--position");
    m.dModel = static_cast<int>(flags.integer("--d-model", m.dModel));
    m.layers = static_cast<int>(flags.integer("--layers", m.layers));
    m.rprClip = static_cast<int>(flags.integer("--rpr-clip", m.rprClip));
    m.ffHidden = static_cast<int>(flags.integer("--ff-hidden", m.ffHidden));
    m.dropoutKeep = flags.real("--dropout-keep", m.dropoutKeep);
    return m;
}

const char* kUsage =
    "usage: attnlab-cli <command> [options]\n"
    "  list [--json]                         datasets, models and position techniques with their ids\n"
    "  describe --dataset D --model M --position P [--d-model N] [--layers N] [--rpr-clip K] [--json]\n"
    "                                        model summary and trainable parameters (embeddings excluded)\n"
    "  train --dataset D --model M --position P [--steps N] [--seed S] [--db FILE] [--device auto|cpu|cuda]\n"
    "        [--d-model N] [--layers N] [--rpr-clip K] [--batch-size N] [--eval-every N] [--optimizer adam|adadelta]\n"
    "        [--lr X] [--dropout-keep P] [--threads N] [--json]\n";

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
        if (args[0] == "train")
            return train(args);
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

int CliApp::train(const std::vector<std::string>& args)
{
    auto valued = kModelFlags;
    valued.insert({"--steps", "--seed", "--db", "--device", "--batch-size", "--eval-every", "--optimizer", "--lr",
                   "--threads"});
    Flags flags(args, valued, {"--json"});
    TrainConfig c;
    c.model = modelConfigFrom(flags);
    c.dataset = flags.required("--dataset");
    checkIds(c.dataset, c.model.model, c.model.position);
    c.steps = static_cast<int>(flags.integer("--steps", c.steps));
    c.seed = static_cast<std::uint64_t>(flags.integer("--seed", static_cast<long long>(c.seed)));
    c.device = flags.text("--device", c.device);
    c.batchSize = static_cast<int>(flags.integer("--batch-size", c.batchSize));
    c.evalEvery = static_cast<int>(flags.integer("--eval-every", c.evalEvery));
    c.optimizer = flags.text("--optimizer", c.optimizer);
    c.learningRate = flags.real("--lr", c.optimizer == "adadelta" ? 1.0 : c.learningRate);
    c.threads = static_cast<int>(flags.integer("--threads", c.threads));
    if (auto problem = c.validate(); !problem.empty())
        throw UsageError(problem);
    if (c.device == "cuda")
        ComputeDevice::resolve("cuda"); // fail before opening anything

    const bool json = flags.has("--json");
    const TextDataset dataset = DatasetCatalog::load(c.dataset);
    {
        // Reject settings that cannot work before anything is stored.
        ModelConfig m = c.model;
        m.numClasses = dataset.numClasses();
        m.vocabularySize = static_cast<int>(Vocabulary::fromExamples(dataset.train).size());
        if (auto problem = m.validate(); !problem.empty())
            throw UsageError(problem);
    }
    RunStore store(flags.text("--db", RunStore::defaultPath()));

    // Human progress goes to stderr so stdout can end with exactly one JSON line.
    class TerminalProgress : public TrainingObserver {
    public:
        explicit TerminalProgress(std::ostream& err) : err_(err), tty_(isatty(STDERR_FILENO)) {}
        void onStarted(const RunInfo& info) override
        {
            err_ << "training " << info.modelSummary << " on " << info.config.dataset << " (" << info.device
                 << ", LibTorch " << info.torchVersion << ", " << info.parameters << " parameters)\n";
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
                err_ << "step " << e.step << "/" << e.totalSteps << " loss " << std::fixed << std::setprecision(4)
                     << e.loss << "\n";
            }
        }
        void onMetric(const MetricPoint& p) override
        {
            if (p.split != "dev" || p.name != "accuracy")
                return;
            err_ << (tty_ ? "\r" : "") << "step " << p.step << ": dev accuracy " << std::fixed << std::setprecision(2)
                 << 100.0 * p.value << "%" << std::string(tty_ ? 30 : 0, ' ') << "\n";
        }

    private:
        std::ostream& err_;
        bool tty_;
        std::chrono::steady_clock::time_point last_{};
    } progress(err_);

    StoreObserver storeObserver(store);
    CompositeObserver observers({&storeObserver, &progress});
    CancelToken cancel;
    gInterruptToken = &cancel;
    auto previous = std::signal(SIGINT, onInterrupt);
    const RunSummary summary = Trainer(c).run(dataset, observers, cancel);
    std::signal(SIGINT, previous);
    gInterruptToken = nullptr;

    err_ << "run " << storeObserver.runId() << " " << toString(summary.status) << " after " << summary.steps
         << " steps in " << std::fixed << std::setprecision(1) << summary.seconds << " s: best dev "
         << std::setprecision(2) << 100.0 * summary.bestDevAccuracy << "% at step " << summary.bestStep << ", test "
         << 100.0 * summary.testAccuracy << "%" << (summary.message.empty() ? "" : " (" + summary.message + ")")
         << "\n";
    if (json) {
        out_ << nlohmann::json{{"run_id", storeObserver.runId()}, {"status", toString(summary.status)},
                               {"dev_accuracy", summary.bestDevAccuracy}, {"best_step", summary.bestStep},
                               {"test_accuracy", summary.testAccuracy}, {"params", summary.parameters},
                               {"steps", summary.steps}, {"seconds", summary.seconds}, {"device", summary.device},
                               {"db", store.path()}, {"message", summary.message}}.dump()
             << "\n";
    }
    switch (summary.status) {
    case RunStatus::Completed: return 0;
    case RunStatus::Cancelled: return 130;
    case RunStatus::Diverged: return 3;
    default: return 1;
    }
}

} // namespace attnlab
