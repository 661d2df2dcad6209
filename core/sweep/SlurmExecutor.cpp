#include "core/sweep/SlurmExecutor.h"

#include "core/platform/ChildProcess.h"
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "core/sweep/SweepFolder.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

namespace attnlab {
namespace {

struct Submission {
    std::string job;
    std::vector<int> tasks; // array task k runs plan index tasks[k]
};

std::vector<Submission> readSubmissions(const SweepFolder& folder)
{
    std::vector<Submission> list;
    const auto j = nlohmann::json::parse(SweepFolder::readText(folder.file("slurm.json")), nullptr, false);
    if (j.is_object() && j.contains("submissions"))
        for (const auto& s : j["submissions"])
            list.push_back({s.value("job", ""), s.value("tasks", std::vector<int>{})});
    return list;
}

void writeSubmissions(const SweepFolder& folder, const std::vector<Submission>& list)
{
    nlohmann::json subs = nlohmann::json::array();
    for (const auto& s : list)
        subs.push_back({{"job", s.job}, {"tasks", s.tasks}});
    SweepFolder::writeText(folder.file("slurm.json"), nlohmann::json{{"submissions", subs}}.dump(2) + "\n");
}

std::string quoted(const std::string& text) // for bash: '...' with ' as '\''
{
    std::string q = "'";
    for (char c : text)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

ChildProcess::Captured runOrThrow(const std::vector<std::string>& argv)
{
    ChildProcess::Captured r = ChildProcess::capture(argv);
    if (r.exitCode != 0) {
        std::string message = r.err.empty() ? r.out : r.err;
        while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
            message.pop_back();
        throw std::runtime_error(argv[0] + " failed (exit " + std::to_string(r.exitCode) + "): " + message +
                                 " (is the Slurm controller up? try 'sinfo')");
    }
    return r;
}

// squeue's view of the sweep's jobs: "JOBID_TASK" -> state, one line per array task (-r).
std::map<std::string, std::string> queued(const std::vector<Submission>& subs)
{
    std::map<std::string, std::string> states;
    std::string ids;
    for (const auto& s : subs)
        ids += (ids.empty() ? "" : ",") + s.job;
    if (ids.empty())
        return states;
    const auto r = ChildProcess::capture({"squeue", "-h", "-r", "-j", ids, "-o", "%i|%T"});
    if (r.exitCode != 0) {
        // Jobs the controller has already forgotten make squeue fail with this; they are simply not queued.
        if (r.err.find("Invalid job id") != std::string::npos)
            return states;
        throw std::runtime_error("squeue failed (exit " + std::to_string(r.exitCode) + "): " + r.err +
                                 " (is the Slurm controller up? try 'sinfo')");
    }
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        const auto bar = line.find('|');
        if (bar == std::string::npos)
            continue;
        const std::string id = line.substr(0, bar), state = line.substr(bar + 1);
        const auto open = id.find("_[");
        if (open == std::string::npos) {
            states[id] = state;
            continue;
        }
        // A range squeue did not expand ("123_[0-3%2]"): every task in it.
        std::string range = id.substr(open + 2);
        range = range.substr(0, range.find_first_of("]%"));
        std::istringstream parts(range);
        for (std::string part; std::getline(parts, part, ',');) {
            const auto dash = part.find('-');
            const int from = std::stoi(part.substr(0, dash));
            const int to = dash == std::string::npos ? from : std::stoi(part.substr(dash + 1));
            for (int k = from; k <= to; ++k)
                states[id.substr(0, open) + "_" + std::to_string(k)] = state;
        }
    }
    return states;
}

bool isActive(const std::string& state)
{
    return state == "PENDING" || state == "RUNNING" || state == "CONFIGURING" || state == "COMPLETING" ||
           state == "SUSPENDED" || state == "REQUEUED" || state == "RESIZING";
}

std::string scriptFor(const SweepFolder& folder, const SlurmExecutor::Options& o, const std::string& tasksFile, std::size_t count)
{
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "#SBATCH --job-name=attnlab-" << o.sweepId << "\n"
      << "#SBATCH --array=0-" << count - 1 << (o.arrayLimit > 0 ? "%" + std::to_string(o.arrayLimit) : "") << "\n"
      << "#SBATCH --cpus-per-task=" << o.cpusPerTask << "\n"
      << "#SBATCH --output=" << folder.file("slurm-%A_%a.out") << "\n";
    if (!o.partition.empty())
        s << "#SBATCH --partition=" << o.partition << "\n";
    if (!o.time.empty())
        s << "#SBATCH --time=" << o.time << "\n";
    if (o.gpusPerTask > 0)
        s << "#SBATCH --gpus-per-task=" << o.gpusPerTask << "\n";
    s << "# Written by attnlab-cli sweep: array task k trains the run on line k+1 of " << tasksFile << ",\n"
      << "# into its own store (task-<i>.sqlite) that 'attnlab-cli sweep collect " << o.sweepId << "' merges.\n"
      << "dir=" << quoted(folder.path()) << "\n"
      << "i=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << quoted(tasksFile) << ")\n"
      << "rm -f \"$dir/task-$i.exit\"\n"
      << quoted(o.program) << " train --config \"$dir/run-$i.json\" --db \"$dir/task-$i.sqlite\" --threads \"${SLURM_CPUS_PER_TASK:-"
      << o.cpusPerTask << "}\" --tags sweep:" << o.sweepId
      // Slurm's --gpus-per-task sets CUDA_VISIBLE_DEVICES to the task's own GPUs: the first is cuda:0 there.
      << (o.gpusPerTask > 0 ? " --device cuda:0" : "") << " --json > \"$dir/run-$i.out\" 2> \"$dir/run-$i.log\" &\n"
      << "pid=$!\n"
      << "# scancel sends TERM: pass it on and wait, so train stores its run as cancelled and the exit code is kept.\n"
      << "trap 'kill -TERM $pid 2>/dev/null' TERM INT\n"
      << "wait $pid; code=$?\n"
      << "while kill -0 $pid 2>/dev/null; do wait $pid; code=$?; done\n"
      << "echo $code > \"$dir/task-$i.exit\"\n"
      << "exit $code\n";
    return s.str();
}

} // namespace

SlurmExecutor::SlurmExecutor(const SweepFolder& folder) : folder_(folder) {}

int SlurmExecutor::maxArraySize()
{
    const auto r = runOrThrow({"scontrol", "show", "config"});
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("MaxArraySize", 0) == 0) {
            const auto eq = line.find('=');
            try {
                return std::max(1, std::stoi(line.substr(eq + 1)));
            } catch (const std::exception&) {
                break;
            }
        }
    return 1001;
}

std::vector<std::string> SlurmExecutor::submit(const std::vector<SweepRun>& runs, const Options& options) const
{
    std::vector<Submission> subs = readSubmissions(folder_);
    for (const auto& [id, state] : queued(subs))
        if (isActive(state))
            throw std::runtime_error("sweep " + options.sweepId + ": task " + id + " is still " + state +
                                     "; wait for it ('attnlab-cli sweep status " + options.sweepId + "') or cancel it first");
    const std::size_t chunk = static_cast<std::size_t>(maxArraySize()); // array indices run 0..MaxArraySize-1
    std::vector<std::string> jobs;
    for (std::size_t first = 0; first < runs.size(); first += chunk) {
        const std::size_t count = std::min(chunk, runs.size() - first);
        const std::string n = std::to_string(subs.size());
        const std::string tasksFile = folder_.file("submit-" + n + ".tasks"), scriptFile = folder_.file("submit-" + n + ".sh");
        std::string lines;
        Submission sub;
        for (std::size_t k = first; k < first + count; ++k) {
            lines += std::to_string(runs[k].index) + "\n";
            sub.tasks.push_back(runs[k].index);
        }
        SweepFolder::writeText(tasksFile, lines);
        SweepFolder::writeText(scriptFile, scriptFor(folder_, options, tasksFile, count));
        auto out = runOrThrow({"sbatch", "--parsable", scriptFile}).out;
        sub.job = out.substr(0, out.find_first_of(";\n")); // "123" or "123;cluster"
        jobs.push_back(sub.job);
        subs.push_back(sub);
        writeSubmissions(folder_, subs); // after each: a failure later still leaves the earlier arrays known
    }
    return jobs;
}

std::vector<SlurmExecutor::Task> SlurmExecutor::status(const std::set<std::string>& done) const
{
    const auto manifest = folder_.read();
    const auto subs = readSubmissions(folder_);
    std::map<int, std::string> jobOf; // the latest submission of each run wins
    for (const auto& s : subs)
        for (std::size_t k = 0; k < s.tasks.size(); ++k)
            jobOf[s.tasks[k]] = s.job + "_" + std::to_string(k);
    const auto states = queued(subs);
    std::vector<Task> tasks;
    for (const auto& r : manifest.runs) {
        Task t;
        t.index = r.index;
        t.key = r.key;
        t.label = r.label;
        t.logPath = folder_.logPath(r.index);
        const auto job = jobOf.find(r.index);
        t.job = job == jobOf.end() ? "" : job->second;
        if (!t.job.empty())
            t.slurmLog = folder_.file("slurm-" + t.job + ".out");
        const auto queuedState = states.find(t.job);
        const std::string exitText = SweepFolder::readText(folder_.exitPath(r.index));
        if (!t.job.empty() && queuedState != states.end() && isActive(queuedState->second)) {
            t.state = queuedState->second == "PENDING" ? "pending" : "running";
        } else if (!exitText.empty()) {
            t.exitCode = std::atoi(exitText.c_str());
            t.state = done.count(r.key) ? "done" : t.exitCode == 0 ? "finished" : t.exitCode == 130 ? "cancelled" : "failed";
        } else if (done.count(r.key)) {
            t.state = "done";
        } else if (t.job.empty()) {
            t.state = "unsubmitted";
        } else {
            t.state = "lost";
            const auto r2 = ChildProcess::capture({"scontrol", "-o", "show", "job", t.job});
            for (const char* field : {"JobState=", "Reason="}) {
                const auto at = r2.out.find(field);
                if (at != std::string::npos)
                    t.detail += (t.detail.empty() ? "" : " ") + r2.out.substr(at, r2.out.find(' ', at) - at);
            }
        }
        tasks.push_back(t);
    }
    return tasks;
}

SlurmExecutor::CollectResult SlurmExecutor::collect(RunStore& store) const
{
    CollectResult result;
    RunExport importer(store);
    for (const auto& t : status({}))
        if (t.state != "pending" && t.state != "running" && std::filesystem::exists(folder_.taskStorePath(t.index))) {
            const auto r = importer.importFrom(folder_.taskStorePath(t.index));
            result.added += r.added;
            result.skipped += r.skipped;
        }
    return result;
}

std::vector<std::string> SlurmExecutor::cancel() const
{
    std::vector<std::string> jobs;
    for (const auto& s : readSubmissions(folder_))
        jobs.push_back(s.job);
    if (!jobs.empty()) {
        std::vector<std::string> argv = {"scancel"};
        argv.insert(argv.end(), jobs.begin(), jobs.end());
        runOrThrow(argv);
    }
    return jobs;
}

} // namespace attnlab
