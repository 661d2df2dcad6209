#include "cli/commands/SweepCommand.h"

#include "cli/CliFlags.h"
#include "core/platform/InterruptGuard.h"
#include "cli/SweepReporter.h"
#include "core/store/RunStore.h"
#include "core/sweep/LocalExecutor.h"
#include "core/sweep/SlurmExecutor.h"
#include "core/sweep/SweepFolder.h"
#include "core/sweep/SweepPlan.h"
#include "core/sweep/SweepSpec.h"
#include "core/platform/CancelToken.h"
#include "core/platform/ExecutablePath.h"
#include "core/training/ComputeDevice.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <ostream>
#include <stdexcept>
#include <thread>

namespace attnlab {
namespace {

const char* kHelp =
    "usage: attnlab-cli sweep [SPEC.json] [grid flags] [--dry-run] [--json] [--db FILE]\n"
    "                         [--executor local|slurm] [--workers N] [--threads T] [--gpus N] [--program PATH]\n"
    "                         [--partition P] [--time T] [--gpus-per-task N] [--array-limit K]\n"
    "       attnlab-cli sweep status|collect|cancel SWEEP_ID [--db FILE] [--json] [--wait]\n"
    "\n"
    "A grid of training runs: the Cartesian product of presets and TrainConfig keys, seeds innermost.\n"
    "SPEC.json: {\"name\": \"...\", \"presets\": [...], \"base\": {\"steps\": 2000}, \"grid\": {\"model\": [\"ssan\", \"lstm\"],\n"
    "            \"position\": [\"none\", \"rpr\"]}, \"repeats\": 5}   (keys: those of a run's config, 'runs show --json')\n"
    "grid flags (added to SPEC's, or replacing its axis of the same key):\n"
    "  --datasets a,b  --models m1,m2  --positions p1,p2  --seeds 1,2,3  --presets p1,p2  --repeat R\n"
    "  --grid 'KEY=V1,V2;KEY2=V3,V4'   --set 'KEY=V;KEY2=V'   (--set: one value for every run)  --name TEXT\n"
    "A combination that cannot run (a position the model does not take, a model for the other task, a setting\n"
    "the trainer refuses) is skipped with its reason; a duplicate configuration is skipped too.\n"
    "Each run has a stable key (its configuration's hash, without threads and paths) and the sweep an id from\n"
    "its keys: running the same sweep again skips every run the store holds as completed (resume).\n"
    "  --dry-run          list the runs (and --json: as JSON), train nothing\n"
    "  --executor local   (default) --workers N processes of 'attnlab-cli train', --threads T each; default\n"
    "                     from the cores (2 cores: 2 workers x 1 thread, measured in docs/BENCHMARKS.md).\n"
    "                     Ctrl-C cancels: running runs are stored as cancelled, completed ones stay.\n"
    "                     --gpus N: worker w trains on cuda:((w-1) mod N), overriding the runs' device.\n"
    "  --executor slurm   one sbatch job array (split at MaxArraySize) of --threads CPUs per task; each task\n"
    "                     trains into <store dir>/sweeps/ID/task-<i>.sqlite; --program is attnlab-cli as the\n"
    "                     nodes see it (default: this one). The store's folder must be shared with the nodes.\n"
    "                     --gpus-per-task N: each task gets N GPUs from Slurm and trains on the first (cuda:0).\n"
    "  status ID          every run's state (done, pending, running, finished, failed, cancelled, lost)\n"
    "  collect ID [--wait] merge finished tasks into the store (again adds nothing); --wait: until none is queued\n"
    "  cancel ID          scancel the sweep's jobs (tasks store their runs as cancelled)\n"
    "Files: <store dir>/sweeps/ID/ (sweep.json, run-<i>.json configs, run-<i>.log progress and errors).\n"
    "Exit codes: 0 all runs completed (or already were); 1 a run failed or diverged, a failed/lost Slurm task\n"
    "(collect), or an error; 2 bad usage or spec; 130 cancelled.\n";

std::string selfExecutable()
{
    const std::string path = ExecutablePath::current();
    return path.empty() ? std::string("attnlab-cli") : path;
}

std::vector<std::string> split(const std::string& text, char separator)
{
    std::vector<std::string> items;
    std::string item;
    for (char c : text + separator) {
        if (c == separator) {
            if (!item.empty())
                items.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    return items;
}

// "KEY=V1,V2;KEY2=V3" -> (KEY, "V1,V2"), (KEY2, "V3")
std::vector<std::pair<std::string, std::string>> assignments(const std::string& flag, const std::string& text)
{
    std::vector<std::pair<std::string, std::string>> list;
    for (const auto& part : split(text, ';')) {
        const auto eq = part.find('=');
        if (eq == std::string::npos || eq == 0)
            throw CliUsageError(flag + " expects KEY=VALUE[;KEY=VALUE...], got '" + part + "'");
        list.emplace_back(part.substr(0, eq), part.substr(eq + 1));
    }
    return list;
}

SweepSpec specFrom(const CliFlags& flags)
{
    const auto& positional = flags.positional();
    const bool gridFlags = flags.has("--datasets") || flags.has("--models") || flags.has("--positions") ||
                           flags.has("--seeds") || flags.has("--presets") || flags.has("--grid") || flags.has("--set") ||
                           flags.has("--repeat");
    if (positional.empty() && !gridFlags)
        throw CliUsageError("sweep: give a SPEC.json or grid flags (--models, --grid, ...; attnlab-cli sweep --help)");
    try {
        SweepSpec spec = positional.empty() ? SweepSpec{} : SweepSpec::fromFile(positional[0]);
        if (flags.has("--presets"))
            spec.setPresets(flags.list("--presets"));
        for (const auto& [flag, key] : std::vector<std::pair<std::string, std::string>>{
                 {"--datasets", "dataset"}, {"--models", "model"}, {"--positions", "position"}, {"--seeds", "seed"}})
            if (flags.has(flag))
                spec.setAxisFromText(key, flags.required(flag));
        if (flags.has("--grid"))
            for (const auto& [key, values] : assignments("--grid", flags.required("--grid")))
                spec.setAxisFromText(key, values);
        if (flags.has("--set"))
            for (const auto& [key, value] : assignments("--set", flags.required("--set")))
                spec.setBaseFromText(key, value);
        if (flags.has("--repeat")) {
            spec.repeats = static_cast<int>(flags.integer("--repeat", 1));
            if (spec.repeats < 1)
                throw CliUsageError("--repeat: at least 1 run per configuration");
        }
        if (flags.has("--name"))
            spec.name = flags.required("--name");
        const bool seedAxis = std::any_of(spec.axes.begin(), spec.axes.end(), [](const auto& a) { return a.first == "seed"; });
        if (seedAxis && spec.repeats > 0)
            throw CliUsageError("sweep: repeats and a seed grid both choose the seeds: give one of them");
        return spec;
    } catch (const std::invalid_argument& e) {
        throw CliUsageError(e.what());
    }
}

nlohmann::json runJson(const SweepRun& run, bool done)
{
    nlohmann::json settings = nlohmann::json::object();
    for (const auto& [key, value] : run.settings)
        settings[key] = nlohmann::json::parse(value);
    return {{"index", run.index}, {"key", run.key}, {"label", run.label()}, {"dataset", run.config.dataset},
            {"model", run.config.model.model}, {"position", run.config.model.position}, {"seed", run.config.seed},
            {"preset", run.preset}, {"settings", settings}, {"done", done}};
}

std::set<std::string> completedKeysIfStore(const std::string& storePath)
{
    if (!std::filesystem::exists(storePath))
        return {};
    const RunStore store(storePath);
    return SweepPlan::completedKeys(store);
}

} // namespace

const char* SweepCommand::help() { return kHelp; }

int SweepCommand::run(const std::vector<std::string>& args)
{
    if (std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; })) {
        out_ << kHelp;
        return 0;
    }
    const std::string sub = args.size() > 1 ? args[1] : "";
    if (sub == "status" || sub == "collect" || sub == "cancel") {
        const CliFlags flags(args, {"--db"}, {"--json", "--wait"}, 2);
        if (flags.positional().size() < 2)
            throw CliUsageError("sweep " + sub + ": give the sweep id (printed when the sweep started)");
        const std::string& id = flags.positional()[1];
        if (sub == "status")
            return status(flags, id);
        return sub == "collect" ? collect(flags, id) : cancel(flags, id);
    }
    const CliFlags flags(args,
                         {"--db", "--executor", "--workers", "--threads", "--gpus", "--program", "--partition", "--time",
                          "--gpus-per-task", "--array-limit", "--datasets", "--models", "--positions", "--seeds",
                          "--presets", "--repeat", "--grid", "--set", "--name"},
                         {"--dry-run", "--json"}, 1);
    return start(flags);
}

int SweepCommand::start(const CliFlags& flags)
{
    const SweepSpec spec = specFrom(flags);
    SweepPlan plan;
    try {
        plan = SweepPlan::expand(spec);
    } catch (const std::invalid_argument& e) {
        throw CliUsageError(e.what());
    }
    const std::string storePath = flags.text("--db", RunStore::defaultPath());
    if (flags.has("--dry-run"))
        return dryRun(plan, storePath, flags.has("--json"));
    if (plan.runs().empty())
        throw CliUsageError("sweep: no combination can run (first: " + plan.skipped().front().label + ": " +
                            plan.skipped().front().reason + ")");
    const std::string executor = flags.text("--executor", "local");
    if (executor == "local")
        return runLocal(plan, flags, storePath);
    if (executor == "slurm")
        return submitSlurm(plan, flags, storePath);
    throw CliUsageError("--executor expects local or slurm, got '" + executor + "'");
}

int SweepCommand::dryRun(const SweepPlan& plan, const std::string& storePath, bool json)
{
    const auto done = completedKeysIfStore(storePath);
    const auto doneCount = std::count_if(plan.runs().begin(), plan.runs().end(), [&](const SweepRun& r) { return done.count(r.key) > 0; });
    if (json) {
        nlohmann::json runs = nlohmann::json::array(), skipped = nlohmann::json::array();
        for (const auto& run : plan.runs())
            runs.push_back(runJson(run, done.count(run.key) > 0));
        for (const auto& s : plan.skipped())
            skipped.push_back({{"label", s.label}, {"reason", s.reason}});
        out_ << nlohmann::json{{"sweep", plan.id()}, {"name", plan.spec().name}, {"runs", runs}, {"skipped", skipped},
                               {"already_done", doneCount}}.dump() << "\n";
        return 0;
    }
    out_ << "sweep " << plan.id() << (plan.spec().name.empty() ? "" : " (" + plan.spec().name + ")") << ": "
         << plan.runs().size() << " runs, " << doneCount << " already completed in " << storePath << ", "
         << plan.skipped().size() << " skipped\n";
    for (const auto& run : plan.runs())
        out_ << "  " << run.index << "  " << run.key << "  " << run.label() << (done.count(run.key) ? "  (done)" : "") << "\n";
    for (const auto& s : plan.skipped())
        out_ << "  skipped  " << s.label << ": " << s.reason << "\n";
    return 0;
}

int SweepCommand::runLocal(const SweepPlan& plan, const CliFlags& flags, const std::string& storePath)
{
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int workers = static_cast<int>(flags.integer("--workers", LocalExecutor::defaultWorkers(cores)));
    const int threads = static_cast<int>(flags.integer("--threads", LocalExecutor::defaultThreads(cores, workers)));
    if (workers < 1 || threads < 1)
        throw CliUsageError("--workers and --threads: at least 1");
    const int gpus = static_cast<int>(flags.integer("--gpus", 0));
    if (gpus < 0)
        throw CliUsageError("--gpus: 0 (each run's own device) or more");
    if (gpus > 0)
        ComputeDevice::resolve("cuda:" + std::to_string(gpus - 1)); // that many GPUs are here, or say so now
    std::vector<SweepRun> pending;
    {
        const RunStore store(storePath); // creates the store, so the workers do not race to
        pending = plan.pending(SweepPlan::completedKeys(store));
    }
    const SweepFolder folder(SweepFolder::pathFor(storePath, plan.id()));
    folder.write(plan, "local", storePath);
    for (const auto& s : plan.skipped())
        err_ << "sweep: skipped " << s.label << ": " << s.reason << "\n";
    const std::size_t already = plan.runs().size() - pending.size();
    err_ << "sweep " << plan.id() << ": " << plan.runs().size() << " runs, " << already << " already completed in "
         << storePath << ", " << pending.size() << " to train with " << workers << " worker(s) x " << threads
         << " thread(s); files in " << folder.path() << "\n";

    CancelToken cancel;
    std::vector<SweepOutcome> outcomes;
    {
        const InterruptGuard interrupt(cancel);
        SweepReporter reporter(err_);
        LocalExecutor executor({flags.text("--program", selfExecutable()), storePath, plan.id(), workers, threads, gpus}, folder);
        outcomes = executor.run(pending, reporter, cancel);
    }
    std::map<std::string, int> counts;
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& o : outcomes) {
        ++counts[o.status];
        runs.push_back({{"index", o.runIndex}, {"label", o.label}, {"status", o.status}, {"exit_code", o.exitCode},
                        {"seconds", o.seconds}, {"log", o.logPath}});
    }
    const int notStarted = static_cast<int>(pending.size() - outcomes.size());
    err_ << "sweep " << plan.id() << ": " << counts["completed"] << " completed, " << counts["failed"] + counts["diverged"]
         << " failed, " << counts["cancelled"] << " cancelled, " << notStarted << " not started, " << already
         << " already done\n";
    if (flags.has("--json"))
        out_ << nlohmann::json{{"sweep", plan.id()}, {"runs", runs}, {"already_done", already}, {"not_started", notStarted},
                               {"folder", folder.path()}}.dump() << "\n";
    if (counts["cancelled"] > 0 || cancel.isCancelled())
        return 130;
    return counts["failed"] + counts["diverged"] > 0 ? 1 : 0;
}

int SweepCommand::submitSlurm(const SweepPlan& plan, const CliFlags& flags, const std::string& storePath)
{
    const SweepFolder folder(SweepFolder::pathFor(storePath, plan.id()));
    const SlurmExecutor slurm(folder);
    RunStore store(storePath);
    const bool resubmission = std::filesystem::exists(folder.file("slurm.json"));
    folder.write(plan, "slurm", storePath);
    if (resubmission) { // tasks that finished but were never collected need no second run
        const auto merged = slurm.collect(store);
        if (merged.added > 0)
            err_ << "sweep " << plan.id() << ": collected " << merged.added << " runs of an earlier submission\n";
    }
    const auto pending = plan.pending(SweepPlan::completedKeys(store));
    for (const auto& s : plan.skipped())
        err_ << "sweep: skipped " << s.label << ": " << s.reason << "\n";
    SlurmExecutor::Options o;
    o.program = flags.text("--program", selfExecutable());
    o.sweepId = plan.id();
    o.partition = flags.text("--partition", "");
    o.time = flags.text("--time", "");
    o.cpusPerTask = static_cast<int>(flags.integer("--threads", 1));
    o.gpusPerTask = static_cast<int>(flags.integer("--gpus-per-task", 0));
    o.arrayLimit = static_cast<int>(flags.integer("--array-limit", 0));
    if (o.cpusPerTask < 1 || o.gpusPerTask < 0 || o.arrayLimit < 0)
        throw CliUsageError("--threads: at least 1; --gpus-per-task and --array-limit: 0 or more");
    std::vector<std::string> jobs;
    if (!pending.empty())
        jobs = slurm.submit(pending, o);
    const std::size_t already = plan.runs().size() - pending.size();
    std::string jobList;
    for (const auto& j : jobs)
        jobList += (jobList.empty() ? "" : ", ") + j;
    err_ << "sweep " << plan.id() << ": " << plan.runs().size() << " runs, " << already << " already completed, "
         << pending.size() << " submitted" << (jobs.empty() ? "" : " as job array(s) " + jobList) << "; files in "
         << folder.path() << "\n"
         << "sweep: follow with 'attnlab-cli sweep status " << plan.id() << " --db " << storePath
         << "', then 'attnlab-cli sweep collect " << plan.id() << " --db " << storePath << "'\n";
    if (flags.has("--json"))
        out_ << nlohmann::json{{"sweep", plan.id()}, {"jobs", jobs}, {"submitted", pending.size()}, {"already_done", already},
                               {"folder", folder.path()}}.dump() << "\n";
    return 0;
}

namespace {

std::vector<SlurmExecutor::Task> tasksOf(const SweepFolder& folder, const SweepFolder::Manifest& manifest,
                                         const std::set<std::string>& done)
{
    if (manifest.executor == "slurm")
        return SlurmExecutor(folder).status(done);
    std::vector<SlurmExecutor::Task> tasks; // a local sweep: a run is done or not, by the store
    for (const auto& r : manifest.runs) {
        SlurmExecutor::Task t;
        t.index = r.index;
        t.key = r.key;
        t.label = r.label;
        t.logPath = folder.logPath(r.index);
        t.state = done.count(r.key) ? "done" : std::filesystem::exists(t.logPath) ? "incomplete" : "not started";
        tasks.push_back(t);
    }
    return tasks;
}

nlohmann::json taskJson(const SlurmExecutor::Task& t)
{
    return {{"index", t.index}, {"key", t.key}, {"label", t.label}, {"state", t.state}, {"exit_code", t.exitCode},
            {"job", t.job}, {"log", t.logPath}, {"slurm_log", t.slurmLog}, {"detail", t.detail}};
}

bool isProblem(const std::string& state) { return state == "failed" || state == "lost" || state == "cancelled"; }

} // namespace

int SweepCommand::status(const CliFlags& flags, const std::string& id)
{
    const std::string storePath = flags.text("--db", RunStore::defaultPath());
    const SweepFolder folder(SweepFolder::pathFor(storePath, id));
    const auto manifest = folder.read();
    const auto tasks = tasksOf(folder, manifest, completedKeysIfStore(storePath));
    std::map<std::string, int> counts;
    for (const auto& t : tasks)
        ++counts[t.state];
    if (flags.has("--json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& t : tasks)
            list.push_back(taskJson(t));
        out_ << nlohmann::json{{"sweep", id}, {"executor", manifest.executor}, {"counts", counts}, {"tasks", list}}.dump() << "\n";
        return 0;
    }
    out_ << "sweep " << id << " (" << manifest.executor << (manifest.name.empty() ? "" : ", " + manifest.name) << "): "
         << tasks.size() << " runs:";
    for (const auto& [state, n] : counts)
        out_ << " " << n << " " << state;
    out_ << "\n";
    for (const auto& t : tasks) {
        out_ << "  " << t.index << "  " << t.state << "  " << t.label;
        if (!t.job.empty())
            out_ << "  [job " << t.job << "]";
        if (isProblem(t.state))
            out_ << "  exit " << t.exitCode << (t.detail.empty() ? "" : " " + t.detail) << ", log " << t.logPath
                 << (t.slurmLog.empty() ? "" : ", slurm log " + t.slurmLog);
        out_ << "\n";
    }
    return 0;
}

int SweepCommand::collect(const CliFlags& flags, const std::string& id)
{
    const std::string storePath = flags.text("--db", RunStore::defaultPath());
    const SweepFolder folder(SweepFolder::pathFor(storePath, id));
    const auto manifest = folder.read();
    if (manifest.executor != "slurm") {
        err_ << "sweep " << id << " ran here: its runs went straight into " << storePath << "; nothing to collect\n";
        return 0;
    }
    const SlurmExecutor slurm(folder);
    if (flags.has("--wait")) {
        auto lastNote = std::chrono::steady_clock::now();
        for (;;) {
            const auto tasks = slurm.status({});
            const auto active = std::count_if(tasks.begin(), tasks.end(), [](const SlurmExecutor::Task& t) {
                return t.state == "pending" || t.state == "running";
            });
            if (active == 0)
                break;
            if (std::chrono::steady_clock::now() - lastNote > std::chrono::seconds(30)) {
                err_ << "sweep " << id << ": waiting for " << active << " queued or running task(s)\n";
                lastNote = std::chrono::steady_clock::now();
            }
            std::this_thread::sleep_for(std::chrono::seconds(2));
        }
    }
    RunStore store(storePath);
    const auto merged = slurm.collect(store);
    const auto tasks = slurm.status(SweepPlan::completedKeys(store));
    std::map<std::string, int> counts;
    nlohmann::json problems = nlohmann::json::array();
    for (const auto& t : tasks) {
        ++counts[t.state];
        if (isProblem(t.state)) {
            problems.push_back(taskJson(t));
            err_ << "sweep " << id << ": run " << t.index << " " << t.state << " (exit " << t.exitCode
                 << (t.detail.empty() ? "" : ", " + t.detail) << "): " << t.label << "; log " << t.logPath
                 << (t.slurmLog.empty() ? "" : ", slurm log " + t.slurmLog) << "\n";
        }
    }
    err_ << "sweep " << id << ": " << merged.added << " runs added to " << storePath << ", " << merged.skipped
         << " already there;";
    for (const auto& [state, n] : counts)
        err_ << " " << n << " " << state;
    err_ << "\n";
    if (flags.has("--json"))
        out_ << nlohmann::json{{"sweep", id}, {"added", merged.added}, {"skipped", merged.skipped}, {"counts", counts},
                               {"problems", problems}}.dump() << "\n";
    return problems.empty() ? 0 : 1;
}

int SweepCommand::cancel(const CliFlags& flags, const std::string& id)
{
    const std::string storePath = flags.text("--db", RunStore::defaultPath());
    const SweepFolder folder(SweepFolder::pathFor(storePath, id));
    const auto manifest = folder.read();
    if (manifest.executor != "slurm")
        throw std::runtime_error("sweep " + id + " runs on this machine: stop it with Ctrl-C in its terminal (completed "
                                 "runs stay; the same sweep again resumes it)");
    const auto jobs = SlurmExecutor(folder).cancel();
    std::string list;
    for (const auto& j : jobs)
        list += (list.empty() ? "" : " ") + j;
    out_ << "sweep " << id << ": cancelled job(s) " << (list.empty() ? "(none submitted)" : list) << "\n";
    return 0;
}

} // namespace attnlab
