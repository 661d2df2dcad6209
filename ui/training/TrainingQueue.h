#pragma once
#include "core/config/TrainConfig.h"
#include "core/results/AttentionSnapshot.h"
#include "core/results/MetricPoint.h"
#include "core/results/RunSummary.h"
#include "core/sweep/RunQueue.h"
#include "ui/training/CoreMetaTypes.h"

#include <QObject>
#include <QString>
#include <QVector>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::ui {

class TrainingWorker;

// Several trainings at once in this process (the window's live comparison): a list of entries,
// each a TrainConfig that is queued, running, or ended, and up to concurrency() TrainingWorkers, each
// training one entry on its own thread. What starts when, and with which share of the cores, is decided by
// the same RunQueue the sweep's LocalExecutor runs on (threads = max(1, cores / runs going at once),
// written into the entry's config: LibTorch's OpenMP thread count is per training thread, see
// ComputeDevice::setThreads); queued entries start as workers become idle. Every entry of one comparison trains on the
// same dataset with the same seed, so the same data in the same batch order (for equal batch sizes), and is a normal
// run in the store tagged "compare:<id>". The workers' events come out again tagged with the entry's index.
class TrainingQueue : public QObject {
    Q_OBJECT
public:
    using State = RunQueue::State;
    static constexpr int kMaxConcurrency = 4;

    struct Entry {
        TrainConfig config;      // as trained: seed, and threads once it started
        State state = State::Queued; // the RunQueue's state of the entry (set only through setState)
        int threads = 0;         // its share of the cores, 0 until it starts
        qint64 runId = 0;        // 0 until the store has its row
        bool stopRequested = false;
        std::optional<RunSummary> summary; // once it ended (a failure to start has none)
        QString message;                   // why it failed, in words
    };

    explicit TrainingQueue(const QString& dbPath, QObject* parent = nullptr);
    ~TrainingQueue() override; // stops every run and waits for their threads (each is stored cancelled)

    const QString& dbPath() const { return dbPath_; }
    // The cores shared out (QThread::idealThreadCount()), and one run's share when `running` go at once.
    static int cores();
    static int threadShare(int running);

    // How many train at once; 0 (the default) picks min(4, entries given to begin()). At most 4.
    void setConcurrency(int concurrency);
    int concurrency() const;

    // A new comparison: forgets ended entries of the last one, gives it a new id, and queues the configs
    // (their seed becomes the first one's). Returns "" when started, else why not (in words): no configs,
    // more than one dataset, or a comparison still running.
    QString begin(const std::vector<TrainConfig>& configs);
    // One more entry for the current comparison (its seed becomes the comparison's); it starts when a
    // worker is free. Returns its index, or -1 for another dataset than the comparison's (with no
    // comparison begun, it begins one).
    int enqueue(const TrainConfig& config);
    // Stops a running entry (stored as cancelled) or takes a queued one out of the queue.
    void cancel(int index);
    void stopAll();
    // Waits for every training thread to end; true when they did within msecs (-1: no limit).
    bool waitAll(int msecs = -1);

    bool isRunning() const; // an entry is queued or running, or a worker has not yet delivered its run's end
    int runningCount() const;
    int count() const { return static_cast<int>(entries_.size()); }
    const Entry& entry(int index) const { return entries_.at(static_cast<std::size_t>(index)); }
    const QString& comparisonId() const { return id_; }
    QString tag() const; // "compare:<id>"
    // The seed and dataset every entry of this comparison shares.
    std::uint64_t seed() const { return seed_; }
    const std::string& dataset() const { return dataset_; }

signals:
    void entryAdded(int index);
    void entryStateChanged(int index); // queued -> running (threads known) -> completed/cancelled/failed
    void runStarted(int index, qint64 runId, const QString& device, qint64 parameters);
    void progress(int index, int step, int totalSteps, double loss, double elapsedSeconds);
    void metricsArrived(int index, const QVector<attnlab::MetricPoint>& points);
    void attentionArrived(int index, const QVector<attnlab::AttentionSnapshot>& snapshots);
    void runFinished(int index, qint64 runId, const attnlab::RunSummary& summary);
    void failed(int index, const QString& message);
    void allFinished(); // the last queued or running entry has ended

private:
    struct Slot {
        TrainingWorker* worker = nullptr;
        int entry = -1; // the entry it trains, -1 when idle
    };
    void dispatch();
    void setState(int index, State state); // the entry and the RunQueue together
    void onIdle(int slot);
    Slot& newSlot();
    int slotOf(int entry) const;

    QString dbPath_;
    QString id_;
    std::uint64_t seed_ = 1;
    std::string dataset_;
    int concurrency_ = 0; // as set; 0 = automatic
    int autoConcurrency_ = 1;
    std::vector<Entry> entries_;
    RunQueue runs_; // the entries' states, what starts next and its threads
    std::vector<Slot> slots_;
};

} // namespace attnlab::ui
