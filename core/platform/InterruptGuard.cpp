#include "core/platform/InterruptGuard.h"

#include "core/platform/CancelToken.h"

#include <atomic>
#include <csignal>

namespace attnlab {
namespace {

// The signal handler can reach only globals; a lock-free atomic is safe to read there.
std::atomic<CancelToken*> gInterruptToken{nullptr};

extern "C" void onInterrupt(int)
{
    if (CancelToken* token = gInterruptToken.load())
        token->cancel();
}

} // namespace

InterruptGuard::InterruptGuard(CancelToken& token)
    : previousToken_(gInterruptToken.exchange(&token)), previousHandler_(std::signal(SIGINT, onInterrupt)),
      previousTermHandler_(std::signal(SIGTERM, onInterrupt))
{
}

InterruptGuard::~InterruptGuard()
{
    std::signal(SIGINT, previousHandler_ == SIG_ERR ? SIG_DFL : previousHandler_);
    std::signal(SIGTERM, previousTermHandler_ == SIG_ERR ? SIG_DFL : previousTermHandler_);
    gInterruptToken.store(previousToken_);
}

} // namespace attnlab
