#pragma once
#include "core/sweep/SweepOutcome.h"
#include "core/sweep/SweepRun.h"

#include <string>
#include <vector>

namespace attnlab {

class CancelToken;
class SweepFolder;
class SweepObserver;

// Runs a sweep's runs on this machine, `workers` at a time, each as its own process:
//   PROGRAM train --config <folder>/run-<i>.json --db STORE --threads T --tags sweep:<id> --json
// Child processes rather than threads because LibTorch's intra-op thread count (ComputeDevice::setThreads)
// is process-wide, so threads could not each get their own budget; a crashing run also takes only its own
// process down. Every run writes straight into the store (SQLite WAL lets them share it).
// Cancelling (the token, or Ctrl-C, which reaches the children through the terminal) sends SIGINT to the
// running children, which store their run as cancelled; no further run starts.
class LocalExecutor {
public:
    struct Options {
        std::string program;     // attnlab-cli to run (the CLI passes its own executable)
        std::string storePath;
        std::string sweepId;
        int workers = 1;
        int threads = 1;         // intra-op threads per run
        // GPUs to share among the workers: worker w trains on cuda:((w - 1) mod gpus), so runs on different
        // workers use different GPUs where there are enough, and queue on one otherwise; 0 = each run's own device.
        int gpus = 0;
    };
    // The device a worker's runs are given ("" = their configuration's).
    static std::string deviceOfWorker(int worker, int gpus);

    LocalExecutor(Options options, const SweepFolder& folder);

    // Workers and threads per worker for this many cores, from the measurement in docs/BENCHMARKS.md
    // ("Sweeps on one machine").
    static int defaultWorkers(int cores);
    static int defaultThreads(int cores, int workers);

    // Outcomes in the order the runs ended.
    std::vector<SweepOutcome> run(const std::vector<SweepRun>& runs, SweepObserver& observer, const CancelToken& cancel);

private:
    Options options_;
    const SweepFolder& folder_;
};

} // namespace attnlab
