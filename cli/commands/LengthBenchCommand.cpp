#include "cli/commands/LengthBenchCommand.h"

#include "cli/CliFlags.h"
#include "core/config/DeviceSetting.h"
#include "core/platform/ChildProcess.h"
#include "core/platform/ExecutablePath.h"
#include "core/platform/Terminal.h"
#include "core/results/RunInfo.h"
#include "core/store/RunStore.h"
#include "core/training/ComputeDevice.h"
#include "core/training/LengthScaling.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace attnlab {
namespace {

nlohmann::json toJson(const LengthScaling::Result& r)
{
    nlohmann::json points = nlohmann::json::array();
    for (const auto& p : r.points) {
        nlohmann::json o{{"length", p.length}};
        if (p.skipped.empty()) {
            o["train_ms"] = p.trainMs;
            o["forward_ms"] = p.forwardMs;
            o["peak_memory_mib"] = p.peakMib;
        } else {
            o["skipped"] = p.skipped;
        }
        points.push_back(o);
    }
    return {{"id", r.family.id}, {"label", r.family.label}, {"summary", r.summary}, {"params", r.parameters},
            {"device", r.device}, {"memory", r.memoryKind}, {"train_slope", r.trainSlope}, {"forward_slope", r.forwardSlope},
            {"points", points}};
}

std::vector<int> parseLengths(const CliFlags& flags)
{
    std::vector<int> lengths;
    for (const auto& item : flags.list("--lengths")) {
        std::size_t used = 0;
        long value = 0;
        try {
            value = std::stol(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != item.size() || item.empty())
            throw CliUsageError("--lengths: '" + item + "' is not a whole number of tokens (e.g. --lengths 16,64,256,1024,4096)");
        lengths.push_back(static_cast<int>(std::clamp<long>(value, -1, 1L << 30)));
    }
    return lengths;
}

} // namespace

int LengthBenchCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args,
                         {"--lengths", "--models", "--device", "--threads", "--batch-size", "--d-model", "--heads", "--position",
                          "--attention-window", "--global-tokens", "--steps", "--seed", "--db"},
                         {"--json", "--no-store", "--one-process"});
    LengthScaling::Settings s;
    s.lengths = parseLengths(flags);
    flags.update("--batch-size", s.batchSize);
    flags.update("--d-model", s.dModel);
    flags.update("--heads", s.heads);
    flags.update("--position", s.position);
    flags.update("--attention-window", s.window);
    flags.update("--global-tokens", s.globalTokens);
    flags.update("--steps", s.minSteps);
    flags.update("--threads", s.threads);
    flags.update("--seed", s.seed);
    flags.update("--device", s.device);
    if (s.position != "none" && s.position != "sinusoidal" && s.position != "learned" && s.position != "rpr" &&
        s.position != "rope" && s.position != "alibi")
        throw CliUsageError("--position: unknown '" + s.position + "' (known: none, sinusoidal, learned, rpr, rope, alibi)");
    if (auto problem = LengthScaling::problem(s); !problem.empty()) {
        const auto key = problem.substr(0, problem.find(':'));
        const std::string flag = key == "lengths" ? "--lengths" : key == "batch_size" ? "--batch-size" : key == "d_model" ? "--d-model"
                               : key == "heads" ? "--heads" : key == "steps" ? "--steps" : "--attention-window";
        throw CliUsageError(flag + problem.substr(problem.find(':')));
    }
    if (auto problem = DeviceSetting::problem(s.device); !problem.empty())
        throw CliUsageError("--" + problem);
    if (s.device != "auto")
        ComputeDevice::resolve(s.device); // fail before measuring anything

    const auto all = LengthScaling::families(s);
    std::vector<LengthScaling::Family> chosen;
    if (flags.has("--models")) {
        for (const auto& id : flags.list("--models")) {
            auto it = std::find_if(all.begin(), all.end(), [&](const auto& f) { return f.id == id; });
            if (it == all.end()) {
                std::string known;
                for (const auto& f : all)
                    known += (known.empty() ? "" : ", ") + f.id;
                throw CliUsageError("--models: unknown family '" + id + "' (known: " + known + ")");
            }
            chosen.push_back(*it);
        }
    } else {
        chosen = all;
    }
    for (const auto& f : chosen)
        if (auto problem = f.config.validate(); !problem.empty())
            throw CliUsageError(f.id + ": " + problem);
    std::unique_ptr<RunStore> store;
    if (!flags.has("--no-store"))
        store = std::make_unique<RunStore>(flags.text("--db", RunStore::defaultPath()));

    ComputeDevice::setThreads(s.threads);
    const bool json = flags.has("--json");
    const bool tty = Terminal::isTerminal(Terminal::Stream::Error);
    std::ostringstream what;
    what << "attention's price: one training step (forward, loss, backward, Adam) and one forward of a batch of " << s.batchSize
         << " random sentences of each length, d_model " << s.dModel << ", 1 layer, position " << s.position
         << " (recurrent and CNN: none), Transformer " << s.heads << " heads; median of at least " << s.minSteps
         << " timed steps after a warm-up; device " << ComputeDevice::describe(ComputeDevice::resolve(s.device)) << ", LibTorch "
         << ComputeDevice::torchVersion();

    const bool isolate = chosen.size() > 1 && !flags.has("--one-process");
    auto measureHere = [&](const LengthScaling::Family& f) {
        auto progress = [&](int done, int total, const std::string& label) {
            if (tty)
                err_ << "\r" << std::left << std::setw(50) << (label + " (" + std::to_string(done) + "/" + std::to_string(total) + ")")
                     << std::flush;
        };
        const auto r = LengthScaling::measure(f, s, progress);
        if (tty)
            err_ << "\r" << std::string(50, ' ') << "\r" << std::flush;
        return toJson(r);
    };
    auto measureInChild = [&](const LengthScaling::Family& f) {
        const std::string program = ExecutablePath::current();
        if (program.empty())
            throw std::runtime_error("bench: cannot find this program (/proc/self/exe)");
        std::string lengths;
        for (const int l : s.lengths)
            lengths += (lengths.empty() ? "" : ",") + std::to_string(l);
        const std::vector<std::string> argv = {program, "bench", "--lengths", lengths, "--models", f.id, "--one-process",
                                               "--no-store", "--json", "--batch-size", std::to_string(s.batchSize), "--d-model",
                                               std::to_string(s.dModel), "--heads", std::to_string(s.heads), "--position", s.position,
                                               "--attention-window", std::to_string(s.window), "--global-tokens",
                                               std::to_string(s.globalTokens), "--steps", std::to_string(s.minSteps), "--threads",
                                               std::to_string(s.threads), "--seed", std::to_string(s.seed), "--device", s.device};
        ChildProcess::Captured ran;
        try {
            ran = ChildProcess::captureOut(argv);
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(std::string("bench: ") + e.what());
        }
        if (ran.signal != 0 || ran.exitCode != 0) {
            // A process killed by the system (out of memory) loses that family, not the others.
            nlohmann::json o{{"id", f.id}, {"label", f.label}, {"points", nlohmann::json::array()},
                             {"failed", "its process " + (ran.signal == 0 ? "exited with " + std::to_string(ran.exitCode)
                                                                          : "was killed by signal " + std::to_string(ran.signal)) +
                                            (ran.signal == 9 ? " (most likely out of memory: try shorter --lengths)" : "")}};
            return o;
        }
        try {
            return nlohmann::json::parse(ran.out).at("models").at(0);
        } catch (const std::exception&) {
            throw std::runtime_error("bench: the process measuring '" + f.id + "' gave no result");
        }
    };

    nlohmann::json results = nlohmann::json::array();
    for (const auto& f : chosen) {
        nlohmann::json o = isolate ? measureInChild(f) : measureHere(f);
        std::int64_t runId = 0;
        if (store && !o.contains("failed")) {
            RunInfo info;
            info.config.dataset = "random-tokens";
            info.config.model = f.config;
            info.config.optimizer = "adam";
            info.config.batchSize = s.batchSize;
            info.config.seed = s.seed;
            info.config.device = s.device;
            info.config.threads = s.threads;
            info.device = o.value("device", "");
            info.torchVersion = ComputeDevice::torchVersion();
            info.parameters = o.value("params", std::int64_t{0});
            info.modelSummary = o.value("summary", "");
            runId = store->beginRun(info);
            std::vector<Characteristic> values = {{"train_slope", o["train_slope"].get<double>(), ""},
                                                  {"forward_slope", o["forward_slope"].get<double>(), ""}};
            for (const auto& p : o["points"]) {
                if (p.contains("skipped"))
                    continue;
                const std::string l = std::to_string(p["length"].get<int>());
                values.push_back({"train_ms." + l, p["train_ms"].get<double>(), "ms"});
                values.push_back({"forward_ms." + l, p["forward_ms"].get<double>(), "ms"});
                values.push_back({"peak_memory." + l, p["peak_memory_mib"].get<double>(), "MiB"});
            }
            store->appendCharacteristics(runId, values);
            store->setTags(runId, {"bench", "lengths"});
            store->renameRun(runId, f.label); // the legend's name: two families may share a model id
            store->setNotes(runId, f.label + ": " + what.str());
            RunSummary summary;
            summary.status = RunStatus::Completed;
            summary.parameters = info.parameters;
            summary.device = info.device;
            summary.message = "attention's price by length only: no training to convergence, no evaluation";
            store->finishRun(runId, summary);
        }
        o["run_id"] = runId;
        results.push_back(std::move(o));
    }
    if (json) {
        out_ << nlohmann::json{{"protocol", what.str()}, {"lengths", s.lengths}, {"batch_size", s.batchSize}, {"d_model", s.dModel},
                               {"models", results}, {"db", store ? store->path() : ""}}.dump()
             << "\n";
        return 0;
    }
    out_ << what.str() << "\n";
    auto table = [&](const std::string& title, const char* key, int precision, const char* slopeKey) {
        out_ << "\n" << title << "\n" << std::left << std::setw(40) << "model" << std::right;
        for (const int l : s.lengths)
            out_ << std::setw(9) << l;
        if (slopeKey)
            out_ << std::setw(8) << "slope";
        out_ << "\n";
        for (const auto& o : results) {
            out_ << std::left << std::setw(40) << o["label"].get<std::string>() << std::right << std::fixed << std::setprecision(precision);
            for (const int l : s.lengths) {
                auto it = std::find_if(o["points"].begin(), o["points"].end(), [&](const auto& p) { return p["length"] == l; });
                if (it == o["points"].end() || it->contains("skipped"))
                    out_ << std::setw(9) << "-";
                else
                    out_ << std::setw(9) << (*it)[key].template get<double>();
            }
            if (slopeKey && !o.contains("failed"))
                out_ << std::setw(8) << std::setprecision(2) << o[slopeKey].get<double>();
            out_ << "\n";
        }
    };
    table("ms per training step", "train_ms", 1, "train_slope");
    table("ms per forward", "forward_ms", 1, "forward_slope");
    table("peak MiB while training (over the memory before each length)", "peak_memory_mib", 0, nullptr);
    for (const auto& o : results) {
        if (o.contains("failed"))
            out_ << o["id"].get<std::string>() << ": " << o["failed"].get<std::string>() << "\n";
        for (const auto& p : o["points"])
            if (p.contains("skipped")) {
                out_ << o["id"].get<std::string>() << ": " << p["skipped"].get<std::string>() << " (skipped with the longer ones)\n";
                break;
            }
    }
    out_ << "slope: of log time on log length over the lengths from 512 (1 = linear, 2 = quadratic)"
         << (store ? "; stored in " + store->path() + " (runs list --tag lengths)" : "") << "\n";
    return 0;
}

} // namespace attnlab
