#pragma once
#include <string>
#include <vector>

namespace attnlab {

// How many intra-op threads a CPU training run uses while other processes want its cores.
//
// Why: every parallel region of LibTorch's OpenMP kernels ends at a barrier. When another process holds a core,
// the thread that waits there for a preempted partner waits a whole time slice, and a step of many small
// regions pays it hundreds of times: with both cores of a laptop busy elsewhere, two threads trained 12-35x
// slower than one (docs/BENCHMARKS.md, "Training on a busy machine"), while idle two were as fast or faster.
// No fixed count is right in both cases, and the load comes and goes while a run trains.
//
// How: the run starts on every core, as before (on one where other processes' threads fill every core as it starts). What says the cores are wanted elsewhere is the share of the
// wall time its threads got a core: the process' CPU time over the wall time of its steps and its threads
// (ProcessInfo::cpuSeconds). Measured on 2 cores: about 0.99 idle on one thread or two (OpenMP's waiting threads
// spin), 0.28-0.40 on two threads and 0.61-0.67 on one with both cores taken. On an idle machine nothing changes,
// so a seed gives the same bits as it always did. Under kBusyShare one thread is tried for a few steps and kept
// if its steps are faster by kMargin than the kept count's over the same window; on one thread, over kFreeShare
// (the load left), every core is tried again, a trial that ends at its first step if that step is slow. A trial
// that does not win waits longer before the next (kCooldown steps, doubling). Each change is a note for the
// run's record. (The process' involuntary context switches were tried first: 22-175 a thread and second idle,
// 176-200 busy, too close to tell apart.)
// Pure arithmetic over what it is given (tests feed it numbers); the training loop applies threads().
class ThreadGovernor {
public:
    // maxThreads: the most the run may use; with 1 there is nothing to choose. busyElsewhere: threads of other
    // processes running as the run starts (ProcessInfo::runnableElsewhere). When they fill every core the run starts
    // on one thread (its first steps on every core would each cost a time slice at a barrier: 1-2 s a step,
    // measured), and tries every core once they have a core to themselves (kFreeShare); otherwise on every core.
    explicit ThreadGovernor(int maxThreads, int busyElsewhere = 0);

    int threads() const { return threads_; } // what the next step should use
    // The step just done at threads(): its number, its wall seconds and the process' CPU seconds during it.
    // Returns true when threads() changed.
    bool record(int step, double seconds, double cpuSeconds);
    // One line per change, e.g. "threads 2 -> 1 at step 10: a step took 1711.6 ms with 2, 72.6 ms with 1 (the
    // cores are busy elsewhere: each thread had a core 31% of the time)".
    const std::vector<std::string>& notes() const { return notes_; }
    int changes() const { return changes_; }
    int trials() const { return trials_; }

    static constexpr double kBusyShare = 0.75; // on every core: idle 0.99, busy 0.28-0.40 (measured)
    static constexpr double kFreeShare = 0.90; // on one thread: idle 0.99, busy 0.61-0.67 (measured)
    static constexpr double kWindowSeconds = 0.25; // the share is read over at least this much training...
    static constexpr int kWindowSteps = 1;         // ...and this many steps (each costs up to 2 s on busy cores)
    static constexpr int kStartSteps = 1; // the run's first step, not read: allocations and the pool's start make it
                                          // slow and short of a core on an idle machine too (a 126 ms step)
    static constexpr int kWarmup = 1;   // a trial's first steps, not compared (a sleeping pool wakes, caches refill)
    static constexpr int kSample = 5;   // a trial's steps whose mean stands for the tried count
    static constexpr double kMargin = 0.90; // the tried count must be 10% faster to be kept
    static constexpr int kCooldown = 100;   // steps after a trial that lost before the next, doubling

private:
    struct Step {
        double seconds;
        double cpuSeconds;
    };
    void startTrial(int step);
    void decide(int step, double trialMean, bool aborted);
    double share() const;         // CPU seconds over wall seconds x threads, over the window
    double keptMean() const;  // seconds a step over the window

    int max_;
    int threads_;
    int kept_;
    bool trial_ = false;
    int trialSteps_ = 0;
    std::vector<double> trialTimes_;
    std::vector<Step> window_; // the kept setting's recent steps
    double shareAtTrial_ = 0.0; // for the note
    int cooldown_ = kCooldown;
    int nextAllowed_ = 0;
    int changes_ = 0;
    int trials_ = 0;
    std::vector<std::string> notes_;
};

} // namespace attnlab
