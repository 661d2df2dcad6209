#include "core/store/StoreObserver.h"
#include "core/store/StoreLockedError.h"

#include <chrono>

namespace attnlab {

StoreObserver::StoreObserver(RunStore& store) : store_(store) {}

StoreObserver::~StoreObserver()
{
    {
        std::lock_guard lock(mutex_);
        queuePendingStep();
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
        dropping_ = false;
        restored_ = false;
        reserve_.take(store_.path());
    }
    if (!writer_.joinable())
        writer_ = std::thread(&StoreObserver::writerLoop, this);
}

void StoreObserver::onProgress(const ProgressEvent&)
{
    if (!runId_)
        return;
    throwIfWriteFailed();
    std::lock_guard lock(mutex_);
    queuePendingStep(); // a new step: the last log step's points are all in
}

void StoreObserver::queuePendingStep()
{
    for (auto& point : pendingStep_) {
        metrics_.push_back(std::move(point));
        ++queuedCount_;
    }
    pendingStep_.clear();
}

void StoreObserver::throwIfWriteFailed()
{
    if (!writeFailed_.load(std::memory_order_relaxed))
        return;
    std::lock_guard lock(mutex_);
    rethrowWriteError();
}

void StoreObserver::onMetric(const MetricPoint& point)
{
    if (!runId_)
        return;
    throwIfWriteFailed();
    std::lock_guard lock(mutex_);
    if (point.split == "train") {
        if (!pendingStep_.empty() && pendingStep_.back().step != point.step)
            queuePendingStep();
        pendingStep_.push_back(point);
        return;
    }
    queuePendingStep();
    metrics_.push_back(point);
    ++queuedCount_;
    urgent_ = true; // a dev (or test) evaluation: worth storing now
    wake_.notify_one();
}

void StoreObserver::onAttention(const AttentionSnapshot& snapshot)
{
    if (!runId_)
        return;
    throwIfWriteFailed();
    std::lock_guard lock(mutex_);
    queuePendingStep();
    attention_.push_back(snapshot); // serialised on the writer thread
    ++queuedCount_;
    urgent_ = true;
    wake_.notify_one();
}

void StoreObserver::onCheckpoint(const CheckpointRef& checkpoint)
{
    if (!runId_)
        return;
    throwIfWriteFailed();
    std::lock_guard lock(mutex_);
    queuePendingStep();
    checkpoints_.push_back(checkpoint);
    ++queuedCount_;
}

void StoreObserver::onFinished(const RunSummary& summary)
{
    if (!runId_)
        return;
    {
        std::lock_guard lock(mutex_);
        queuePendingStep();
        finished_ = summary;
        ++queuedCount_;
    }
    flush(); // the run's end is in the store before anyone is told it ended
}

void StoreObserver::flush()
{
    std::unique_lock lock(mutex_);
    queuePendingStep();
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
    writeFailed_ = false;
    std::rethrow_exception(error);
}

void StoreObserver::writerLoop()
{
    using Clock = std::chrono::steady_clock;
    std::unique_lock lock(mutex_);
    auto deadline = Clock::now() + std::chrono::seconds(1);
    std::optional<Clock::time_point> lockedSince; // the file has been locked by another process since then
    bool endRetried = false; // the run's end, taken with a write that failed, was queued again once
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
        const bool dropping = dropping_;
        urgent_ = false;
        lock.unlock();

        // What is written leaves the vectors, so after an error they hold exactly what is not stored.
        std::exception_ptr error;
        bool locked = false;
        bool endWritten = false;
        if (dropping) { // after a failed write only the run's end is written: the failure and its reason
            metrics.clear();
            attention.clear();
            checkpoints.clear();
        }
        try {
            store_.appendMetrics(runId, metrics); // one transaction
            metrics.clear();
            for (; !attention.empty(); attention.erase(attention.begin()))
                store_.appendAttention(runId, attention.front());
            for (; !checkpoints.empty(); checkpoints.erase(checkpoints.begin()))
                store_.addCheckpoint(runId, checkpoints.front().step, checkpoints.front().path,
                                     checkpoints.front().sha256);
            if (!dropping && store_.restoreIfDeleted())
                restored_ = true;
            if (finished) {
                RunSummary summary = *finished;
                if (restored_) {
                    const std::string note = "the database file was deleted during the run and written back "
                                             "from the open connection";
                    summary.message = summary.message.empty() ? note : summary.message + "; " + note;
                }
                store_.finishRun(runId, summary);
                finished.reset();
                endWritten = true;
                if (store_.restoreIfDeleted()) // deleted at the very end: the finished row goes back too
                    restored_ = true;
            }
            lockedSince.reset();
        } catch (const StoreLockedError&) {
            const auto now = Clock::now();
            if (!lockedSince)
                lockedSince = now;
            if (now - *lockedSince < std::chrono::seconds(kLockedRetrySeconds))
                locked = true; // another process holds the file: keep the rows and try again
            else
                error = std::current_exception();
        } catch (...) {
            error = std::current_exception();
        }

        lock.lock();
        if (locked) { // back to the front of the queue, in order; nothing counts as stored yet
            metrics_.insert(metrics_.begin(), metrics.begin(), metrics.end());
            attention_.insert(attention_.begin(), attention.begin(), attention.end());
            checkpoints_.insert(checkpoints_.begin(), checkpoints.begin(), checkpoints.end());
            if (finished)
                finished_ = finished;
            continue;
        }
        if (error) {
            dropping_ = true;
            reserve_.release(); // the room kept for this: the run's end is written next
            if (!error_) {
                error_ = error;
                writeFailed_ = true;
            }
            // The run's end came in the batch whose write failed (a disk full at the last rows): it goes round
            // once more on its own, as dropping mode writes only the end, so the run is stored as failed with
            // its reason instead of being left running (found one time in three on a full tmpfs).
            if (finished && !endRetried) {
                endRetried = true;
                finished_ = finished;
                continue;
            }
        }
        if (endWritten)
            reserve_.release(); // the run is whole in the store: the room goes back to the disk
        storedCount_ = taken;
        stored_.notify_all();
        if (stopping && queuedCount_ == storedCount_)
            return;
    }
}

} // namespace attnlab
