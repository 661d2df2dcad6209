#include "core/StoreObserver.h"

namespace attnlab {

StoreObserver::StoreObserver(RunStore& store) : store_(store), lastFlush_(std::chrono::steady_clock::now()) {}

StoreObserver::~StoreObserver()
{
    try {
        flush();
    } catch (...) {
        // Destructors must not throw; the run's status says what happened.
    }
}

void StoreObserver::onStarted(const RunInfo& info)
{
    runId_ = store_.beginRun(info);
    lastFlush_ = std::chrono::steady_clock::now();
}

void StoreObserver::onMetric(const MetricPoint& point)
{
    pending_.push_back(point);
    // At most one second of metrics is ever only in memory.
    if (std::chrono::steady_clock::now() - lastFlush_ >= std::chrono::seconds(1) || point.split != "train")
        flush();
}

void StoreObserver::onAttention(const AttentionSnapshot& snapshot)
{
    if (runId_)
        store_.appendAttention(runId_, snapshot);
}

void StoreObserver::onFinished(const RunSummary& summary)
{
    flush();
    if (runId_)
        store_.finishRun(runId_, summary);
}

void StoreObserver::flush()
{
    lastFlush_ = std::chrono::steady_clock::now();
    if (!runId_ || pending_.empty())
        return;
    store_.appendMetrics(runId_, pending_);
    pending_.clear();
}

} // namespace attnlab
