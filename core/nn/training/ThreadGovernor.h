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
// How: the run starts on every core, as before. What says the cores are wanted elsewhere is the scheduler
// itself: the involuntary context switches of the process (ProcessInfo::involuntarySwitches) per thread and
// second of training. On an idle machine they are few and nothing changes, so a seed gives the same bits as it
// always did. When they pass kBusyRate, one thread is tried for a few steps and kept if its steps are faster by
// kMargin than the kept count's over the same window; on one thread, when they fall under kFreeRate (the load left), every core is tried again, a trial
// that ends at its first step if that step is slow. A trial that does not win waits twice as long before the
// next (kCooldown steps, doubling). Each change is a note for the run's record.
// Pure arithmetic over what it is given (tests feed it numbers); the training loop applies threads().
class ThreadGovernor {
public:
    // maxThreads: the count the run starts with; with 1 there is nothing to choose.
    explicit ThreadGovernor(int maxThreads);

    int threads() const { return threads_; } // what the next step should use
    // The step just done at threads(): its number, wall seconds and the process' involuntary switches during it.
    // Returns true when threads() changed.
    bool record(int step, double seconds, long long switches);
    // One line per change, e.g. "threads 2 -> 1 at step 48: a step took 41.2 ms with 2, 2.9 ms with 1 (the
    // cores are busy elsewhere: 212 preemptions a thread and second)".
    const std::vector<std::string>& notes() const { return notes_; }
    int changes() const { return changes_; }
    int trials() const { return trials_; }

    static constexpr double kBusyRate = 60.0; // preemptions per thread and second: idle 2-25, both cores taken 100-200 (measured)
    static constexpr double kFreeRate = 20.0; // on one thread: idle 3, both cores taken about 100 (measured)
    static constexpr double kWindowSeconds = 0.25; // the rate is read over at least this much training...
    static constexpr int kWindowSteps = 3;         // ...and this many steps
    static constexpr int kWarmup = 1;   // a trial's first steps, not compared (a sleeping pool wakes, caches refill)
    static constexpr int kSample = 5;   // a trial's steps whose mean stands for the tried count
    static constexpr double kMargin = 0.90; // the tried count must be 10% faster to be kept
    static constexpr int kCooldown = 100;   // steps after a trial that lost before the next, doubling

private:
    struct Step {
        double seconds;
        long long switches;
    };
    void startTrial(int step);
    void decide(int step, double trialMean, bool aborted);
    double rate() const;          // preemptions per thread and second over the window
    double keptMean() const;  // seconds a step over the window

    int max_;
    int threads_;
    int kept_;
    bool trial_ = false;
    int trialSteps_ = 0;
    std::vector<double> trialTimes_;
    std::vector<Step> window_; // the kept setting's recent steps
    double ratePerThread_ = 0.0; // at the trial's start, for the note
    int cooldown_ = kCooldown;
    int nextAllowed_ = 0;
    int changes_ = 0;
    int trials_ = 0;
    std::vector<std::string> notes_;
};

} // namespace attnlab
