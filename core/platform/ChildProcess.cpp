#include "core/platform/ChildProcess.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h> // environ (glibc declares it with _GNU_SOURCE, which g++ defines)

namespace attnlab {
namespace {

int exitCodeOf(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

// Spawns argv with stdout -> outFd and stderr -> errFd (both already open in the parent); errFd -1 leaves
// stdin and stderr as ours.
pid_t spawn(const std::vector<std::string>& argv, int outFd, int errFd, const std::vector<int>& closeInChild)
{
    if (argv.empty())
        throw std::runtime_error("no program to run");
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (errFd >= 0)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outFd, STDOUT_FILENO);
    if (errFd >= 0)
        posix_spawn_file_actions_adddup2(&actions, errFd, STDERR_FILENO);
    for (int fd : closeInChild)
        posix_spawn_file_actions_addclose(&actions, fd);
    pid_t pid = -1;
    const int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0)
        throw std::runtime_error("cannot run '" + argv[0] + "': " + std::strerror(error) +
                                 (error == ENOENT ? " (is it installed and on PATH?)" : ""));
    return pid;
}

} // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& stdoutPath)
{
    const std::string outPath = stdoutPath.empty() ? "/dev/null" : stdoutPath;
    const int outFd = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (outFd < 0)
        throw std::runtime_error(outPath + ": cannot write (" + std::strerror(errno) + ")");
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0) {
        close(outFd);
        throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
    }
    try {
        pid_ = spawn(argv, outFd, pipeFds[1], {});
    } catch (...) {
        close(outFd);
        close(pipeFds[0]);
        close(pipeFds[1]);
        throw;
    }
    close(outFd);
    close(pipeFds[1]);
    errFd_ = pipeFds[0];
    fcntl(errFd_, F_SETFL, fcntl(errFd_, F_GETFL) | O_NONBLOCK);
}

ChildProcess::~ChildProcess()
{
    if (!exitCode_ && pid_ > 0) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        waitpid(pid_, &status, 0);
    }
    if (errFd_ >= 0)
        close(errFd_);
}

std::vector<std::string> ChildProcess::readErrLines()
{
    std::vector<std::string> lines;
    if (errFd_ < 0)
        return lines;
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(errFd_, buffer, sizeof buffer);
        if (n > 0) {
            partial_.append(buffer, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) { // the end of the stream: whatever is left is the last line
            close(errFd_);
            errFd_ = -1;
            if (!partial_.empty())
                partial_ += '\n';
        }
        break;
    }
    for (std::size_t newline; (newline = partial_.find('\n')) != std::string::npos;) {
        lines.push_back(partial_.substr(0, newline));
        partial_.erase(0, newline + 1);
    }
    return lines;
}

std::optional<int> ChildProcess::tryWait()
{
    if (!exitCode_) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_)
            exitCode_ = exitCodeOf(status);
    }
    return exitCode_;
}

int ChildProcess::wait()
{
    while (!exitCode_) {
        readErrLines();
        int status = 0;
        const pid_t r = waitpid(pid_, &status, 0);
        if (r == pid_)
            exitCode_ = exitCodeOf(status);
        else if (r < 0 && errno != EINTR)
            exitCode_ = -1;
    }
    return *exitCode_;
}

void ChildProcess::signal(int sig)
{
    if (!exitCode_ && pid_ > 0)
        ::kill(pid_, sig);
}

void ChildProcess::interrupt() { signal(SIGINT); }

void ChildProcess::waitForOutput(const std::vector<const ChildProcess*>& children, int timeoutMs)
{
    std::vector<pollfd> fds;
    for (const ChildProcess* child : children)
        if (child->errFd_ >= 0)
            fds.push_back({child->errFd_, POLLIN, 0});
    poll(fds.data(), fds.size(), timeoutMs); // EINTR (Ctrl-C) just ends the wait early
}

ChildProcess::Captured ChildProcess::captureOut(const std::vector<std::string>& argv)
{
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
    pid_t pid = -1;
    try {
        pid = spawn(argv, out[1], -1, {});
    } catch (...) {
        close(out[0]);
        close(out[1]);
        throw;
    }
    close(out[1]);
    Captured result;
    char buffer[4096];
    for (ssize_t got; (got = read(out[0], buffer, sizeof buffer)) != 0;) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break;
        result.out.append(buffer, static_cast<std::size_t>(got));
    }
    close(out[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exitCode = exitCodeOf(status);
    result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return result;
}

ChildProcess::Captured ChildProcess::capture(const std::vector<std::string>& argv)
{
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
    if (pipe2(err, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
    }
    pid_t pid = -1;
    try {
        pid = spawn(argv, out[1], err[1], {});
    } catch (...) {
        for (int fd : {out[0], out[1], err[0], err[1]})
            close(fd);
        throw;
    }
    close(out[1]);
    close(err[1]);
    Captured result;
    // Both streams at once: a program that fills one pipe while we block on the other would hang.
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open = 2;
    while (open > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buffer[4096];
            const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                sinks[i]->append(buffer, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (auto& fd : fds)
        if (fd.fd >= 0)
            close(fd.fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exitCode = exitCodeOf(status);
    result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return result;
}

} // namespace attnlab
