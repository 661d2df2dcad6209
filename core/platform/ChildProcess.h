#pragma once
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// Another program run by this one (POSIX posix_spawnp): a sweep's training runs, and sbatch/squeue/scancel.
// Its standard output goes to a file, its standard error comes back through a pipe, line by line, so the
// parent can both log and read progress without a thread per child. The child stays in our process group:
// a Ctrl-C in the terminal reaches it as it reaches us.
class ChildProcess {
public:
    struct Captured {
        int exitCode = -1; // its exit status, or 128 + the signal that ended it
        int signal = 0;    // the signal that ended it; 0 when it exited
        std::string out, err; // err stays "" for captureOut
    };

    // argv[0] is looked up in PATH when it has no slash. stdoutPath "" = /dev/null. Throws
    // std::runtime_error naming the program when it cannot be started.
    ChildProcess(const std::vector<std::string>& argv, const std::string& stdoutPath);
    ~ChildProcess(); // a child still running is killed (SIGKILL) and reaped: never leave one behind
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    int pid() const { return pid_; }
    int errFd() const { return errFd_; } // for poll(); -1 once the stream has ended
    // The lines it completed on stderr since the last call, without blocking; the last unfinished line
    // comes with the end of the stream.
    std::vector<std::string> readErrLines();
    // Its exit code once it has ended (reaped), else nothing; never blocks.
    std::optional<int> tryWait();
    int wait(); // blocks; reads and drops what is left on stderr
    void signal(int sig);
    void interrupt(); // SIGINT, as a Ctrl-C in the terminal: a training run stores itself as cancelled

    // Blocks until one of the children has written to stderr or closed it, or timeoutMs has passed (a
    // signal to this process, Ctrl-C, ends it early). With no stream left open it just waits.
    static void waitForOutput(const std::vector<const ChildProcess*>& children, int timeoutMs);

    // Runs a program to its end and returns what it printed.
    static Captured capture(const std::vector<std::string>& argv);
    // Runs a program to its end with its standard output captured; its stdin and stderr are ours (its
    // progress and errors reach the user as it prints them).
    static Captured captureOut(const std::vector<std::string>& argv);

private:
    int pid_ = -1;
    int errFd_ = -1;
    std::string partial_;
    std::optional<int> exitCode_;
};

} // namespace attnlab
