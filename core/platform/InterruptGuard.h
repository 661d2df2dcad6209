#pragma once

namespace attnlab {

class CancelToken;

// Ctrl-C (SIGINT) or SIGTERM (what kill, Slurm's scancel and a sweep's cancel send) while a guard lives
// cancels its token (a run then stops before the next batch and is stored as cancelled; a download stops
// before the next chunk). The handlers and token before it come back when the guard goes out of scope,
// however the scope is left (a return, an exception). POSIX signal handlers: no caller names a signal.
class InterruptGuard {
public:
    explicit InterruptGuard(CancelToken& token);
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

private:
    using Handler = void (*)(int);
    CancelToken* previousToken_;
    Handler previousHandler_;
    Handler previousTermHandler_;
};

} // namespace attnlab
