#include "core/store/StoreObserver.h"

#include <chrono>

namespace attnlab {

StoreObserver::StoreObserver(RunStore& store) : store_(store) {}

StoreObserver::~StoreObserver()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (writer_.joinable())
        writer_.join(); // the writer stores what is queued before it stops
}

void StoreObserver::onStarted(const RunInfo& info)
{
    if (writer_.joinable())
        flush(); // one observer, several runs (repeats): the previous run is stored completely first
    // Once per run, so synchronous: the caller may use runId() as soon as this returns.
    const std::int64_t id = store_.beginRun(info);
    if (!tags_.empty())
        store_.setTags(id, tags_);
    {
        std::lock_guard lock(mutex_);
        runId_ = id;
    }
    if (!writer_.joinable())
        writer_ = std::thread(&StoreObserver::writerLoop, this);
}

void StoreObserver::onMetric(const MetricPoint& point)
{
    if (!runId_)
        return;
    std::lock_guard lock(mutex_);
    metrics_.push_back(point);
    ++queuedCount_;
    if (point.split != "train") { // a dev (or test) evaluation: worth storing now
        urgent_ = true;
        wake_.notify_one();
    }
}

void StoreObserver::onAttention(const AttentionSnapshot& snapshot)
{
    if (!runId_)
        return;
    std::lock_guard lock(mutex_);
    attention_.push_back(snapshot); // serialised on the writer thread
    ++queuedCount_;
    urgent_ = true;
    wake_.notify_one();
}

void StoreObserver::onCheckpoint(const CheckpointRef& checkpoint)
{
    if (!runId_)
        return;
    std::lock_guard lock(mutex_);
    checkpoints_.push_back(checkpoint);
    ++queuedCount_;
}

void StoreObserver::onFinished(const RunSummary& summary)
{
    if (!runId_)
        return;
    {
        std::lock_guard lock(mutex_);
        finished_ = summary;
        ++queuedCount_;
    }
    flush(); // the run's end is in the store before anyone is told it ended
}

void StoreObserver::flush()
{
    std::unique_lock lock(mutex_);
    if (!writer_.joinable())
        return;
    const std::uint64_t target = queuedCount_;
    urgent_ = true;
    wake_.notify_one();
    stored_.wait(lock, [&] { return storedCount_ >= target; });
    rethrowWriteError();
}

void StoreObserver::rethrowWriteError()
{
    if (!error_)
        return;
    auto error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
}

void StoreObserver::writerLoop()
{
    using Clock = std::chrono::steady_clock;
    std::unique_lock lock(mutex_);
    auto deadline = Clock::now() + std::chrono::seconds(1);
    for (;;) {
        wake_.wait_until(lock, deadline, [&] { return urgent_ || stopping_; });
        // Take the whole queue; whatever arrives from now on is stored within a second of now.
        deadline = Clock::now() + std::chrono::seconds(1);
        std::vector<MetricPoint> metrics;
        std::vector<AttentionSnapshot> attention;
        std::vector<CheckpointRef> checkpoints;
        std::optional<RunSummary> finished;
        metrics.swap(metrics_);
        attention.swap(attention_);
        checkpoints.swap(checkpoints_);
        finished.swap(finished_);
        const std::uint64_t taken = queuedCount_;
        const std::int64_t runId = runId_;
        const bool stopping = stopping_;
        const bool failed = error_ != nullptr;
        urgent_ = false;
        lock.unlock();

        std::exception_ptr error;
        if (!failed) { // after a failure, events are dropped until flush() has reported it
            try {
                store_.appendMetrics(runId, metrics); // one transaction
                for (const auto& snapshot : attention)
                    store_.appendAttention(runId, snapshot);
                for (const auto& c : checkpoints)
                    store_.addCheckpoint(runId, c.step, c.path, c.sha256);
                if (finished)
                    store_.finishRun(runId, *finished);
            } catch (...) {
                error = std::current_exception();
            }
        }

        lock.lock();
        if (error && !error_)
            error_ = error;
        storedCount_ = taken;
        stored_.notify_all();
        if (stopping && queuedCount_ == storedCount_)
            return;
    }
}

} // namespace attnlab
