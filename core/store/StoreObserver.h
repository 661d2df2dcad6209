#pragma once
#include "core/store/DiskReserve.h"
#include "core/store/RunStore.h"
#include "core/results/TrainingObserver.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace attnlab {

// Writes a run to the store without making the training thread wait for SQLite: onMetric and
// onAttention only queue; a writer thread commits the queue in one transaction at least once a second,
// at once after a dev evaluation, and at the end, so a kill loses at most the last second. A log step's train
// points are queued together when the next step begins, so a kill keeps a step whole or not at all.
// onStarted creates the run synchronously (runId() is valid when it returns); onFinished waits until
// the whole run is in the store; the destructor drains.
// When a write fails (disk full, file-size limit, read-only file), the next event of the training thread
// throws that error, so the run stops there and the trainer records it as failed with the store's message
// rather than training on with nothing stored. A file locked by another process is waited for instead:
// the rows stay queued and are written when the lock goes (for up to kLockedRetrySeconds, then it fails
// too). A file deleted during the run is written back from the open connection (RunStore::restoreIfDeleted),
// and the run's message says so. While a run writes, DiskReserve keeps room beside the file, given back at
// the first failed write, so a disk that filled up still takes the run's end.
class StoreObserver : public TrainingObserver {
public:
    static constexpr int kLockedRetrySeconds = 60;

    explicit StoreObserver(RunStore& store);
    ~StoreObserver() override;
    StoreObserver(const StoreObserver&) = delete;
    StoreObserver& operator=(const StoreObserver&) = delete;

    void onStarted(const RunInfo& info) override;
    void onProgress(const ProgressEvent& event) override;
    void onMetric(const MetricPoint& point) override;
    void onAttention(const AttentionSnapshot& snapshot) override;
    void onCheckpoint(const CheckpointRef& checkpoint) override;
    void onFinished(const RunSummary& summary) override;

    // Tags written on every run this observer starts, as soon as its row exists (the window's compared
    // runs: compare:<id>). Set before the run starts.
    void setTags(std::vector<std::string> tags) { tags_ = std::move(tags); }

    std::int64_t runId() const { return runId_; }
    void flush(); // returns when everything queued so far is in the store

private:
    void writerLoop();
    void rethrowWriteError(); // mutex_ held
    void throwIfWriteFailed(); // on the training thread: a failed write ends the run at its next event
    void queuePendingStep();   // mutex_ held: the newest log step's train points join the queue, whole

    RunStore& store_;
    std::vector<std::string> tags_;
    std::atomic<std::int64_t> runId_{0};

    std::mutex mutex_;
    std::condition_variable wake_;   // the writer waits here for its next second, or an urgent flush
    std::condition_variable stored_; // flush() waits here
    std::vector<MetricPoint> metrics_;
    // The train points of the newest log step (loss, wall time, epoch, norms...), queued together when the next
    // step begins or anything else arrives: the writer takes its queue at any moment, and a kill must not leave a
    // step's wall time stored without its loss.
    std::vector<MetricPoint> pendingStep_;
    std::vector<AttentionSnapshot> attention_;
    std::vector<CheckpointRef> checkpoints_;
    std::optional<RunSummary> finished_;
    std::uint64_t queuedCount_ = 0; // events queued so far ...
    std::uint64_t storedCount_ = 0; // ... and how many of them the writer has handled
    bool urgent_ = false;
    bool stopping_ = false;
    std::exception_ptr error_; // a failed write, reported by the next event or flush()
    std::atomic<bool> writeFailed_{false}; // error_ is set: read without the mutex on every event
    bool dropping_ = false; // a write of this run failed: only its end (failed, with the reason) is written
    DiskReserve reserve_;   // room for the run's end on a full disk (mutex_)
    bool restored_ = false; // the file was deleted during the run and written back (writer thread only)
    std::thread writer_;
};

} // namespace attnlab
