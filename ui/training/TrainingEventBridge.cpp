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
    pending_ = {};
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
    pending_.started = Started{runId_, QString::fromStdString(info.device), info.parameters,
                               QString::fromStdString(info.modelSummary)};
    scheduleLocked();
}

void TrainingEventBridge::onProgress(const ProgressEvent& event)
{
    QMutexLocker lock(&mutex_);
    pending_.progress = event;
    if (!sinceProgressSent_.isValid() || sinceProgressSent_.elapsed() >= kProgressIntervalMs)
        scheduleLocked();
}

void TrainingEventBridge::onMetric(const MetricPoint& point)
{
    QMutexLocker lock(&mutex_);
    pending_.metrics.push_back(point);
    scheduleLocked();
}

void TrainingEventBridge::onAttention(const AttentionSnapshot& snapshot)
{
    QMutexLocker lock(&mutex_);
    pending_.snapshots.push_back(snapshot);
    scheduleLocked();
}

void TrainingEventBridge::onFinished(const RunSummary& summary)
{
    QMutexLocker lock(&mutex_);
    pending_.finished = summary;
    scheduleLocked();
}

void TrainingEventBridge::reportFailure(const QString& message)
{
    QMutexLocker lock(&mutex_);
    pending_.failure = message;
    scheduleLocked();
}

void TrainingEventBridge::deliver()
{
    Pending batch;
    qint64 runId = 0;
    {
        QMutexLocker lock(&mutex_);
        deliveryPending_ = false;
        std::swap(batch, pending_);
        // Progress keeps its own pace: one not yet due stays for a later delivery; the last value always
        // goes out with the end of the run.
        const bool progressDue = !sinceProgressSent_.isValid()
            || sinceProgressSent_.elapsed() >= kProgressIntervalMs || batch.finished || batch.failure;
        if (!progressDue)
            std::swap(pending_.progress, batch.progress);
        else if (batch.progress)
            sinceProgressSent_.start();
        runId = runId_;
    }
    // Emitted outside the lock: receivers may take their time without stalling the trainer.
    if (const auto& started = batch.started)
        emit runStarted(started->runId, started->device, started->parameters, started->modelSummary);
    if (!batch.metrics.isEmpty())
        emit metricsArrived(batch.metrics);
    if (!batch.snapshots.isEmpty())
        emit attentionArrived(batch.snapshots);
    if (const auto& latest = batch.progress)
        emit progress(latest->step, latest->totalSteps, latest->loss, latest->elapsedSeconds);
    if (batch.finished)
        emit runFinished(runId, *batch.finished);
    if (batch.failure)
        emit failed(*batch.failure);
}

} // namespace attnlab::ui
