#include "ui/training/TrainingEventBridge.h"

#include <QMetaObject>
#include <QMutexLocker>

#include <utility>

namespace attnlab::ui {

TrainingEventBridge::TrainingEventBridge(QObject* parent) : QObject(parent), timer_(new QTimer(this))
{
    timer_->setInterval(kDeliveryIntervalMs);
    connect(timer_, &QTimer::timeout, this, &TrainingEventBridge::deliver);
}

void TrainingEventBridge::reset()
{
    {
        QMutexLocker lock(&mutex_);
        runId_ = 0;
        pending_ = {};
        // deliveryPending_ is left alone: a queued delivery already posted will still run and clear it.
    }
    timer_->start();
}

void TrainingEventBridge::setStoreObserver(const StoreObserver* store)
{
    QMutexLocker lock(&mutex_);
    store_ = store;
}

void TrainingEventBridge::deliverNowLocked()
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
    deliverNowLocked();
}

void TrainingEventBridge::onProgress(const ProgressEvent& event)
{
    QMutexLocker lock(&mutex_);
    pending_.progress = event;
}

void TrainingEventBridge::onMetric(const MetricPoint& point)
{
    QMutexLocker lock(&mutex_);
    pending_.metrics.push_back(point);
}

void TrainingEventBridge::onAttention(const AttentionSnapshot& snapshot)
{
    QMutexLocker lock(&mutex_);
    pending_.snapshots.push_back(snapshot);
}

void TrainingEventBridge::onFinished(const RunSummary& summary)
{
    QMutexLocker lock(&mutex_);
    pending_.finished = summary;
    deliverNowLocked();
}

void TrainingEventBridge::reportFailure(const QString& message)
{
    QMutexLocker lock(&mutex_);
    pending_.failure = message;
    deliverNowLocked();
}

void TrainingEventBridge::deliver()
{
    Pending batch;
    qint64 runId = 0;
    {
        QMutexLocker lock(&mutex_);
        deliveryPending_ = false;
        std::swap(batch, pending_);
        runId = runId_;
    }
    if (batch.finished || batch.failure)
        timer_->stop(); // nothing more comes from this run

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
