#include "ui/training/TrainingEventBridge.h"

#include <QMetaObject>
#include <QMutexLocker>

#include <utility>

namespace attnlab::ui {

TrainingEventBridge::TrainingEventBridge(QObject* parent) : QObject(parent) {}

void TrainingEventBridge::reset()
{
    QMutexLocker lock(&mutex_);
    runId_ = 0;
    started_.reset();
    progress_.reset();
    metrics_.clear();
    snapshots_.clear();
    finished_.reset();
    failure_.reset();
    sinceProgressSent_.invalidate();
    // deliveryPending_ is left alone: a queued delivery already posted will still run and clear it.
}

void TrainingEventBridge::setStoreObserver(const StoreObserver* store)
{
    QMutexLocker lock(&mutex_);
    store_ = store;
}

void TrainingEventBridge::scheduleLocked()
{
    if (deliveryPending_)
        return;
    deliveryPending_ = true;
    // This object lives in the GUI thread, so the invocation runs there, after the events already posted.
    QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
}

void TrainingEventBridge::onStarted(const RunInfo& info)
{
    QMutexLocker lock(&mutex_);
    runId_ = store_ ? store_->runId() : 0;
    started_ = Started{runId_, QString::fromStdString(info.device), info.parameters,
                       QString::fromStdString(info.modelSummary)};
    scheduleLocked();
}

void TrainingEventBridge::onProgress(const ProgressEvent& event)
{
    QMutexLocker lock(&mutex_);
    progress_ = event;
    if (!sinceProgressSent_.isValid() || sinceProgressSent_.elapsed() >= kProgressIntervalMs)
        scheduleLocked();
}

void TrainingEventBridge::onMetric(const MetricPoint& point)
{
    QMutexLocker lock(&mutex_);
    metrics_.push_back(point);
    scheduleLocked();
}

void TrainingEventBridge::onAttention(const AttentionSnapshot& snapshot)
{
    QMutexLocker lock(&mutex_);
    snapshots_.push_back(snapshot);
    scheduleLocked();
}

void TrainingEventBridge::onFinished(const RunSummary& summary)
{
    QMutexLocker lock(&mutex_);
    finished_ = summary;
    scheduleLocked();
}

void TrainingEventBridge::reportFailure(const QString& message)
{
    QMutexLocker lock(&mutex_);
    failure_ = message;
    scheduleLocked();
}

void TrainingEventBridge::deliver()
{
    std::optional<Started> started;
    std::optional<ProgressEvent> latest;
    QVector<MetricPoint> metrics;
    QVector<AttentionSnapshot> snapshots;
    std::optional<RunSummary> finished;
    std::optional<QString> failure;
    qint64 runId = 0;
    {
        QMutexLocker lock(&mutex_);
        deliveryPending_ = false;
        std::swap(started, started_);
        std::swap(metrics, metrics_);
        std::swap(snapshots, snapshots_);
        std::swap(finished, finished_);
        std::swap(failure, failure_);
        // Progress keeps its own pace; the last value always goes out with the end of the run.
        const bool progressDue = !sinceProgressSent_.isValid()
            || sinceProgressSent_.elapsed() >= kProgressIntervalMs || finished || failure;
        if (progress_ && progressDue) {
            std::swap(latest, progress_);
            sinceProgressSent_.start();
        }
        runId = runId_;
    }
    // Emitted outside the lock: receivers may take their time without stalling the trainer.
    if (started)
        emit runStarted(started->runId, started->device, started->parameters, started->modelSummary);
    if (!metrics.isEmpty())
        emit metricsArrived(metrics);
    if (!snapshots.isEmpty())
        emit attentionArrived(snapshots);
    if (latest)
        emit progress(latest->step, latest->totalSteps, latest->loss, latest->elapsedSeconds);
    if (finished)
        emit runFinished(runId, *finished);
    if (failure)
        emit failed(*failure);
}

} // namespace attnlab::ui
