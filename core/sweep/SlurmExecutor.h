#pragma once
#include "core/sweep/SweepRun.h"

#include <set>
#include <string>
#include <vector>

namespace attnlab {

class RunStore;
class SweepFolder;

// A sweep on a Slurm cluster: one sbatch job array per at most MaxArraySize runs (scontrol show config),
// each task running `PROGRAM train --config run-<i>.json --db task-<i>.sqlite` in the sweep folder, which
// must be on a filesystem the nodes share (it sits next to the store). Tasks write their own SQLite files,
// never the main store: SQLite over NFS with many writers is asking for locks and corruption. `collect`
// merges finished tasks into the store with RunExport::importFrom, which skips runs it already has (by
// uuid), so collecting twice adds nothing. State comes from squeue/scontrol and each task's exit file;
// no accounting database (sacct) is needed. Errors throw std::runtime_error naming the command and its
// message.
class SlurmExecutor {
public:
    struct Options {
        std::string program;   // attnlab-cli as the nodes see it
        std::string sweepId;
        std::string partition; // "" = the cluster's default
        std::string time;      // sbatch --time, "" = the partition's default
        int cpusPerTask = 1;   // also train's --threads
        int gpusPerTask = 0;
        int arrayLimit = 0;    // at most this many tasks of an array at once (%K); 0 = no limit
    };
    // One run as the cluster sees it.
    struct Task {
        int index = 0;
        std::string key, label;
        // done (in the main store) | pending | running | finished (not collected yet) | failed | cancelled |
        // lost (left the queue without an exit code: killed, timed out, node failure) | unsubmitted
        std::string state;
        int exitCode = -1;
        std::string job;       // JOBID_TASKID, "" when never submitted
        std::string logPath;   // train's standard error
        std::string slurmLog;  // slurm-<job>_<task>.out
        std::string detail;    // scontrol's JobState/Reason for a lost task
    };
    struct CollectResult {
        int added = 0, skipped = 0;
    };

    explicit SlurmExecutor(const SweepFolder& folder);

    // Writes the batch scripts and submits; returns the job ids. Refuses while earlier tasks of this sweep
    // are still queued or running.
    std::vector<std::string> submit(const std::vector<SweepRun>& runs, const Options& options) const;
    // Every run of the sweep; `done` = keys completed in the main store (SweepPlan::completedKeys).
    std::vector<Task> status(const std::set<std::string>& done) const;
    // Merges every task that has ended (finished, failed, cancelled) into the store.
    CollectResult collect(RunStore& store) const;
    std::vector<std::string> cancel() const; // scancel every job of the sweep; returns the job ids
    static int maxArraySize();               // from scontrol show config; 1001 (Slurm's default) if not said

private:
    const SweepFolder& folder_;
};

} // namespace attnlab
