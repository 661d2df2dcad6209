#pragma once
#include <vector>

namespace attnlab {

// The queue both executors of one machine run on: the sweep's LocalExecutor (each run an `attnlab-cli
// train` child process) and the window's TrainingQueue (each run a training thread, side by side). It
// holds the runs in order with their state, says which queued runs start now (at most concurrency() at once)
// and with how many intra-op threads (the cores shared out among the runs going at once, or a fixed
// number), and counts them. What starts a run, a process or a thread, is the executor's; the bookkeeping
// and the thread budget are here, so the window and the sweep cannot drift apart.
class RunQueue {
public:
    enum class State { Queued, Running, Completed, Cancelled, Failed };
    struct Start {
        int index = 0;
        int threads = 1;
    };

    explicit RunQueue(int cores, int concurrency = 1);

    void clear();
    int add(); // a queued run; returns its index (0, 1, ...)
    void setConcurrency(int runsAtOnce); // how many run at once, at least 1
    int concurrency() const { return concurrency_; }
    int cores() const { return cores_; }

    // The queued runs to start now, in order, each with threadsPerRun threads, or (0) with the cores shared
    // by the runs that go at once after these start. The executor marks each Running once it started.
    std::vector<Start> startable(int threadsPerRun = 0) const;
    void setState(int index, State state);
    // A queued run leaves the queue (Cancelled) and true is returned; a running one is the executor's to
    // stop (false); an ended one is left as it is (false).
    bool cancelQueued(int index);
    void cancelAllQueued();

    State state(int index) const { return states_.at(static_cast<std::size_t>(index)); }
    int count(State state) const;
    int size() const { return static_cast<int>(states_.size()); }
    bool active() const { return count(State::Queued) + count(State::Running) > 0; }

    // One run's share when `runsAtOnce` share `cores` (at least 1).
    static int threadShare(int cores, int runsAtOnce);
    // A sweep's workers for this many cores. Measured on 2 cores (docs/BENCHMARKS.md, "Sweeps on one
    // machine"): one run per core beats one run with every core, since a small model's step cannot keep
    // several threads busy. Half the cores on bigger machines keeps two threads per run for larger matmuls.
    static int defaultWorkers(int cores);

private:
    int cores_;
    int concurrency_;
    std::vector<State> states_;
};

} // namespace attnlab
