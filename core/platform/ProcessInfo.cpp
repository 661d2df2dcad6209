#include "core/platform/ProcessInfo.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <signal.h>
#include <time.h>
#include <unistd.h>

namespace attnlab {

int ProcessInfo::currentId() { return static_cast<int>(getpid()); }

bool ProcessInfo::isAlive(int pid)
{
    return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

double ProcessInfo::cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

namespace {

// Runnable tasks in the whole system, this reading's own thread among them; -1 without /proc.
int runnableTasks()
{
    std::ifstream in("/proc/loadavg");
    double one = 0, five = 0, fifteen = 0;
    int running = -1;
    char slash = 0;
    if (!(in >> one >> five >> fifteen >> running >> slash) || slash != '/')
        return -1;
    return running;
}

// This process' threads in state R (running or on a run queue).
int ownRunnableThreads()
{
    int own = 0;
    std::error_code error;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
        std::ifstream in(task.path() / "stat");
        std::string line;
        std::getline(in, line);
        const auto close = line.rfind(')'); // the name in parentheses may hold spaces; the state follows it
        if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'R')
            ++own;
    }
    return own;
}

} // namespace

int ProcessInfo::runnableElsewhere()
{
    int least = -1;
    for (int read = 0; read < 5; ++read) {
        if (read > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const int all = runnableTasks();
        if (all < 0)
            return -1;
        const int elsewhere = std::max(0, all - std::max(1, ownRunnableThreads()));
        least = least < 0 ? elsewhere : std::min(least, elsewhere);
    }
    return least;
}

} // namespace attnlab
