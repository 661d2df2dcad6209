#pragma once

namespace attnlab {

// Facts about processes on this host (POSIX): this one's id (unique file names, a run's owner), whether
// another still exists (a run whose writer died is marked failed), and this one's CPU time (benchmarks on
// a shared machine, where wall time measures the neighbours; the training loop's ThreadGovernor: the share of its
// threads' time they had a core).
class ProcessInfo {
public:
    static int currentId();
    // True while a process with this id exists, ours to signal or not (kill(pid, 0): EPERM is alive).
    // False for pid <= 0 and for a child that has been reaped.
    static bool isAlive(int pid);
    static double cpuSeconds(); // user + system time of this process so far
    // Threads of other processes running or ready to run right now: the kernel's count of runnable tasks
    // (/proc/loadavg's fourth field) less this process' own (/proc/self/task/*/stat in state R), the least of a few
    // reads 2 ms apart (a read is a moment: a short task passing by would count). -1 where /proc is not there.
    static int runnableElsewhere();
};

} // namespace attnlab
