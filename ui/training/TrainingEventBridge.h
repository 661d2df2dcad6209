#pragma once
#include "core/store/StoreObserver.h"
#include "core/results/TrainingObserver.h"
#include "ui/training/CoreMetaTypes.h"

#include <QMutex>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QVector>

#include <cstdint>
#include <optional>

namespace attnlab::ui {

// Turns trainer events (called on the training thread) into signals on the thread this object lives in
// (the GUI thread). Events are buffered under a mutex; a GUI-thread timer delivers what is there every
// ~50 ms while a run lasts, so a model that trains thousands of batches a second neither floods the event
// loop nor wakes the GUI thread at every step (each wake-up on a small machine preempts one of LibTorch's
// OpenMP threads, and the others wait for it at their barrier: docs/BENCHMARKS.md, window vs CLI).
// Progress is the latest value; metric points and attention snapshots arrive in batches, in the order the
// trainer produced them. A run's start, end and failure are delivered at once, with everything before
// them. The worker that owns it emits idle only after the last of a run's signals; receivers connect here
// directly (TrainingWorker::events()).
class TrainingEventBridge : public QObject, public TrainingObserver {
    Q_OBJECT
public:
    static constexpr int kDeliveryIntervalMs = 50;

    explicit TrainingEventBridge(QObject* parent = nullptr);

    // Called on the GUI thread before the training thread starts; forgets any previous run and starts the
    // delivery timer (stopped when the run's end or failure has been delivered).
    void reset();
    // The store observer that runs before this one in the composite; its run id names the run.
    void setStoreObserver(const StoreObserver* store);

    void onStarted(const RunInfo& info) override;
    void onProgress(const ProgressEvent& event) override;
    void onMetric(const MetricPoint& point) override;
    void onAttention(const AttentionSnapshot& snapshot) override;
    void onFinished(const RunSummary& summary) override;
    // Not a trainer event: the worker reports a run that could not start or broke (any thread).
    void reportFailure(const QString& message);

signals:
    void runStarted(qint64 runId, const QString& device, qint64 parameters, const QString& modelSummary);
    void progress(int step, int totalSteps, double loss, double elapsedSeconds);
    void metricsArrived(const QVector<attnlab::MetricPoint>& points);
    void attentionArrived(const QVector<attnlab::AttentionSnapshot>& snapshots);
    void runFinished(qint64 runId, const attnlab::RunSummary& summary);
    void failed(const QString& message);

private:
    struct Started {
        qint64 runId = 0;
        QString device;
        qint64 parameters = 0;
        QString modelSummary;
    };
    // What arrived since the last delivery; deliver() takes it all in one swap, under the lock.
    struct Pending {
        std::optional<Started> started;
        std::optional<ProgressEvent> progress;
        QVector<MetricPoint> metrics;
        QVector<AttentionSnapshot> snapshots;
        std::optional<RunSummary> finished;
        std::optional<QString> failure;
    };

    void deliverNowLocked(); // caller holds mutex_; for a run's start, end and failure
    Q_INVOKABLE void deliver();

    QMutex mutex_;
    const StoreObserver* store_ = nullptr;
    bool deliveryPending_ = false; // an immediate delivery is posted and has not run yet
    qint64 runId_ = 0;
    Pending pending_;
    QTimer* timer_; // GUI thread: the paced deliveries
};

} // namespace attnlab::ui
