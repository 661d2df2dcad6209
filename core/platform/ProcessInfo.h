#pragma once

namespace attnlab {

// Facts about processes on this host (POSIX): this one's id (unique file names, a run's owner), whether
// another still exists (a run whose writer died is marked failed), and this one's CPU time (benchmarks on
// a shared machine, where wall time measures the neighbours), and how often the scheduler took a core from
// its threads (another process wanted it: the training loop's ThreadGovernor reads that as "the cores are busy").
class ProcessInfo {
public:
    static int currentId();
    // True while a process with this id exists, ours to signal or not (kill(pid, 0): EPERM is alive).
    // False for pid <= 0 and for a child that has been reaped.
    static bool isAlive(int pid);
    static double cpuSeconds(); // user + system time of this process so far
    // Involuntary context switches of all this process' threads so far (getrusage's ru_nivcsw): a thread that
    // was runnable but preempted, because another thread wanted its core or its time slice ran out.
    static long long involuntarySwitches();
};

} // namespace attnlab
