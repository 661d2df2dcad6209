#include "core/sweep/LocalExecutor.h"
#include "core/platform/JsonInteger.h"

#include "core/platform/ChildProcess.h"
#include "core/sweep/RunQueue.h"
#include "core/sweep/SweepFolder.h"
#include "core/sweep/SweepObserver.h"
#include "core/platform/CancelToken.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>

namespace attnlab {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Slot {
    int worker = 0;
    int queueIndex = 0; // in the RunQueue: the position of the run in run()'s list
    SweepRun run;
    std::unique_ptr<ChildProcess> process;
    std::ofstream log;
    std::string lastLine;
    Clock::time_point started;
    int step = 0, total = 0;
    // The first progress report: the pace is measured from it, so the data loading before step 1 (10 s
    // for SST with GloVe) does not read as the time of one step (an ETA of hours at the start of a run).
    int firstStep = -1;
    Clock::time_point firstProgress;
};

// Time left: each running run by its own pace since its first progress report (steps left x seconds per
// step), each queued run at the mean duration of those finished (or of the running estimates before any
// has finished), over the workers.
double estimateEta(const std::vector<std::unique_ptr<Slot>>& slots, std::size_t queued, const std::vector<double>& durations,
                   int workers)
{
    double meanDone = -1;
    if (!durations.empty()) {
        meanDone = 0;
        for (double d : durations)
            meanDone += d;
        meanDone /= static_cast<double>(durations.size());
    }
    double left = 0, estimates = 0;
    int estimated = 0;
    for (const auto& s : slots) {
        const double elapsed = secondsSince(s->started);
        double whole = meanDone;
        if (s->firstStep >= 0 && s->step > s->firstStep && s->total > 0) {
            const double perStep = secondsSince(s->firstProgress) / (s->step - s->firstStep);
            whole = elapsed + perStep * std::max(0, s->total - s->step);
            estimates += whole;
            ++estimated;
        }
        if (whole < 0)
            return -1;
        left += std::max(0.0, whole - elapsed);
    }
    const double perRun = meanDone >= 0 ? meanDone : estimated > 0 ? estimates / estimated : -1;
    if (queued > 0 && perRun < 0)
        return -1;
    return (left + static_cast<double>(queued) * std::max(0.0, perRun)) / std::max(1, workers);
}

} // namespace

LocalExecutor::LocalExecutor(Options options, const SweepFolder& folder) : options_(std::move(options)), folder_(folder) {}

std::string LocalExecutor::deviceOfWorker(int worker, int gpus)
{
    return gpus > 0 ? "cuda:" + std::to_string((worker - 1) % gpus) : "";
}

int LocalExecutor::defaultWorkers(int cores) { return RunQueue::defaultWorkers(cores); }

int LocalExecutor::defaultThreads(int cores, int workers) { return RunQueue::threadShare(cores, workers); }

std::vector<SweepOutcome> LocalExecutor::run(const std::vector<SweepRun>& runs, SweepObserver& observer,
                                             const CancelToken& cancel)
{
    // The shared queue (RunQueue, as the window's side-by-side training uses) decides what starts and with
    // how many threads; here each start is a child process on a free worker number (the progress lines'
    // "worker 1", "worker 2").
    RunQueue queue(options_.workers * options_.threads, options_.workers);
    for (std::size_t i = 0; i < runs.size(); ++i)
        queue.add();
    std::vector<std::unique_ptr<Slot>> slots;
    std::vector<SweepOutcome> outcomes;
    std::vector<double> durations;
    SweepProgress progress;
    progress.total = static_cast<int>(runs.size());
    bool interrupted = false;
    auto lastReport = Clock::now() - std::chrono::seconds(10);
    std::vector<int> freeWorkers;
    for (int w = options_.workers; w >= 1; --w)
        freeWorkers.push_back(w);

    while (queue.active()) {
        if (cancel.isCancelled() && !interrupted) {
            interrupted = true; // the children store their runs as cancelled, as train does on Ctrl-C
            queue.cancelAllQueued();
            for (auto& s : slots)
                s->process->interrupt();
        }
        for (const RunQueue::Start& start : queue.startable(options_.threads)) {
            auto slot = std::make_unique<Slot>();
            slot->worker = freeWorkers.back();
            freeWorkers.pop_back();
            slot->queueIndex = start.index;
            slot->run = runs[static_cast<std::size_t>(start.index)];
            const int i = slot->run.index;
            slot->log.open(folder_.logPath(i), std::ios::trunc);
            slot->started = Clock::now();
            try {
                std::vector<std::string> args{options_.program, "train", "--config", folder_.configPath(i), "--db",
                                              options_.storePath, "--threads", std::to_string(start.threads), "--tags",
                                              "sweep:" + options_.sweepId, "--json"};
                if (const std::string device = deviceOfWorker(slot->worker, options_.gpus); !device.empty())
                    args.insert(args.end(), {"--device", device});
                slot->process = std::make_unique<ChildProcess>(args, folder_.resultPath(i));
            } catch (const std::exception& e) {
                SweepOutcome o{i, slot->run.label(), 127, "failed", 0.0, folder_.logPath(i), e.what()};
                slot->log << e.what() << "\n";
                ++progress.failed;
                freeWorkers.push_back(slot->worker);
                queue.setState(start.index, RunQueue::State::Failed);
                observer.onRunFinished(slot->worker, o);
                outcomes.push_back(o);
                continue;
            }
            queue.setState(start.index, RunQueue::State::Running);
            observer.onRunStarted(slot->worker, slot->run);
            slots.push_back(std::move(slot));
        }
        if (slots.empty())
            continue; // every start failed: the next queued runs, or the end (queue.active())

        std::vector<const ChildProcess*> children;
        bool anyOpen = false;
        for (auto& s : slots) {
            children.push_back(s->process.get());
            anyOpen = anyOpen || s->process->errFd() >= 0;
        }
        ChildProcess::waitForOutput(children, anyOpen ? 500 : 200);

        for (auto it = slots.begin(); it != slots.end();) {
            Slot& s = **it;
            for (const auto& line : s.process->readErrLines()) {
                s.log << line << "\n";
                if (!line.empty())
                    s.lastLine = line;
                const auto j = nlohmann::json::parse(line, nullptr, false);
                if (j.is_object() && j.value("event", "") == "progress") {
                    s.step = JsonInteger::valueOr(j, "step", 0);
                    s.total = JsonInteger::valueOr(j, "total", 0);
                    if (s.firstStep < 0) {
                        s.firstStep = s.step;
                        s.firstProgress = Clock::now();
                    }
                }
            }
            const auto code = s.process->errFd() < 0 ? s.process->tryWait() : std::nullopt;
            if (!code) {
                ++it;
                continue;
            }
            SweepOutcome o;
            o.runIndex = s.run.index;
            o.label = s.run.label();
            o.exitCode = *code;
            o.status = SweepOutcome::statusOfExitCode(*code);
            o.seconds = secondsSince(s.started);
            o.logPath = folder_.logPath(s.run.index);
            if (o.status != "completed") {
                // train's error is its last line; a JSON progress line carries no reason, so keep it as text
                const auto j = nlohmann::json::parse(s.lastLine, nullptr, false);
                o.message = j.is_object() && j.contains("text") ? j["text"].get<std::string>() : s.lastLine;
            }
            if (o.status == "completed") {
                ++progress.completed;
                durations.push_back(o.seconds);
                queue.setState(s.queueIndex, RunQueue::State::Completed);
            } else if (o.status == "cancelled") {
                ++progress.cancelled;
                queue.setState(s.queueIndex, RunQueue::State::Cancelled);
            } else {
                ++progress.failed;
                queue.setState(s.queueIndex, RunQueue::State::Failed);
            }
            freeWorkers.push_back(s.worker);
            observer.onRunFinished(s.worker, o);
            outcomes.push_back(o);
            it = slots.erase(it);
        }

        if (secondsSince(lastReport) >= 2.0) {
            lastReport = Clock::now();
            progress.workers.clear();
            for (const auto& s : slots)
                progress.workers.push_back({s->worker, s->run.index, s->run.label(), s->step, s->total, secondsSince(s->started)});
            std::sort(progress.workers.begin(), progress.workers.end(),
                      [](const SweepWorkerState& a, const SweepWorkerState& b) { return a.worker < b.worker; });
            progress.etaSeconds = estimateEta(slots, static_cast<std::size_t>(queue.count(RunQueue::State::Queued)), durations,
                                              options_.workers);
            observer.onProgress(progress);
        }
    }
    return outcomes;
}

} // namespace attnlab
