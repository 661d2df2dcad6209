#include "core/platform/ProcessInfo.h"

#include <cerrno>
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

} // namespace attnlab
