#include "ui/training/TrainingController.h"

#include "core/config/Registry.h"
#include "core/results/RunResult.h"
#include "ui/StdStrings.h"
#include "ui/training/DeviceLabel.h"
#include "ui/training/RunReplay.h"
#include "ui/training/RunToolBar.h"
#include "ui/training/TrainingEventBridge.h"
#include "ui/training/TrainingView.h"
#include "ui/training/TrainingWorker.h"

#include <QLabel>

#include <algorithm>

namespace attnlab::ui {

QString TrainingController::headline(qint64 runId, const std::string& model, const std::string& position,
                                     const std::string& dataset)
{
    const QString what =
        tr("%1 on %2").arg(qs(Registry::modelLabel(model, position)), qs(Registry::nameOf(Registry::datasets(), dataset)));
    return runId > 0 ? tr("Run #%1 · %2").arg(runId).arg(what) : what;
}

TrainingController::TrainingController(const QString& dbPath, Views views, QObject* parent)
    : QObject(parent), worker_(new TrainingWorker(dbPath, this)), views_(views)
{
    // Straight from the bridge: its signals already arrive on this (GUI) thread, coalesced.
    const TrainingEventBridge* events = worker_->events();
    connect(events, &TrainingEventBridge::runStarted, this, &TrainingController::onRunStarted);
    connect(events, &TrainingEventBridge::progress, this, &TrainingController::onProgress);
    connect(events, &TrainingEventBridge::metricsArrived, this, &TrainingController::onMetrics);
    connect(events, &TrainingEventBridge::attentionArrived, this, &TrainingController::onAttention);
    connect(events, &TrainingEventBridge::runFinished, this, &TrainingController::onRunFinished);
    connect(events, &TrainingEventBridge::failed, this, [this](const QString& text) {
        emit message(text);
        emit failed(text);
    });
    connect(worker_, &TrainingWorker::idle, this, &TrainingController::onIdle);
}

TrainingController::~TrainingController()
{
    // The views may go before this object: nothing reaches them from the run's last events.
    worker_->events()->disconnect(this);
    worker_->disconnect(this);
    stopAndWait();
}

bool TrainingController::isRunning() const { return worker_->isRunning(); }
bool TrainingController::setDbPath(const QString& path) { return worker_->setDbPath(path); }

bool TrainingController::start(const TrainConfig& config, int repeats)
{
    if (isRunning())
        return false;
    repeats_.begin(repeats);
    return startRun(config);
}

bool TrainingController::startRun(const TrainConfig& config)
{
    if (!worker_->start(config))
        return false;
    views_.runBar->runBegun(config.steps);
    liveConfig_ = config;
    views_.replay->clear();
    views_.training->beginLive(config.steps, config.evalEvery, headline(0, config.model.model, config.model.position, config.dataset), tr("loading the dataset…"));
    views_.loss->clear();
    emit message(tr("Loading %1…").arg(qs(Registry::nameOf(Registry::datasets(), config.dataset))));
    return true;
}

void TrainingController::stop()
{
    repeats_.stop(); // a stopped repeat series ends here
    if (!isRunning())
        return;
    worker_->stop();
    views_.runBar->stopping();
    emit message(tr("Stopping after the current batch…"));
}

void TrainingController::stopAndWait()
{
    repeats_.stop();
    if (!isRunning())
        return;
    // The trainer checks the token before every batch; the store observer records the run as cancelled on
    // its way out, so waiting here loses nothing.
    worker_->stop();
    worker_->wait();
}

void TrainingController::onRunStarted(qint64 runId, const QString& device, qint64 parameters, const QString& modelSummary)
{
    QString subtitle;
    if (!device.isEmpty()) { // empty when the run failed before choosing one
        views_.device->showRunDevice(device, modelSummary);
        subtitle = tr("training · %L1 parameters · %2").arg(parameters).arg(device);
    }
    views_.training->liveStarted(runId, headline(runId, liveConfig_.model.model, liveConfig_.model.position, liveConfig_.dataset), subtitle);
    emit message(tr("Training run #%1 on %2").arg(runId).arg(device));
    emit runBegun(runId);
}

void TrainingController::onProgress(int step, int totalSteps, double loss, double elapsedSeconds)
{
    views_.runBar->setProgress(step, totalSteps);
    views_.loss->setText(tr("loss %1 · %2 s").arg(loss, 0, 'f', 4).arg(elapsedSeconds, 0, 'f', 1));
}

void TrainingController::onMetrics(const QVector<MetricPoint>& points)
{
    views_.training->addLiveMetrics(std::vector<MetricPoint>(points.begin(), points.end()));
}

void TrainingController::onAttention(const QVector<AttentionSnapshot>& snapshots)
{
    // The training view shows the probe sentence (probe 0) of the latest evaluation; the Explorer has the rest.
    const auto latest = std::find_if(snapshots.rbegin(), snapshots.rend(), [](const AttentionSnapshot& s) { return s.probe == 0; });
    if (latest == snapshots.rend())
        return;
    views_.training->setLiveAttention(*latest);
    emit attentionArrived(views_.training->liveRunId());
}

void TrainingController::onRunFinished(qint64 runId, const RunSummary& summary)
{
    views_.device->runFinished();
    repeats_.add(summary);
    const RunResult result(summary);
    emit message(tr("Run #%1 %2").arg(runId).arg(qs(result.sentence())));
    views_.training->liveFinished(qs(result.brief()), summary.steps);
    emit runStored(runId);
    if (summary.status == RunStatus::Failed || summary.status == RunStatus::Diverged) {
        const QString text = tr("Run #%1 %2: %3").arg(runId).arg(qs(toString(summary.status)), qs(summary.message));
        emit message(text);
        emit failed(text);
    }
}

void TrainingController::onIdle()
{
    // Repeats: the next seed, unless this run was stopped or failed; the summary after the last one.
    if (repeats_.startNext()) {
        TrainConfig next = liveConfig_;
        ++next.seed;
        emit runsChanged(); // the finished run is listed before the next one starts
        if (startRun(next))
            return;
    }
    if (const QString summary = repeats_.summary(liveConfig_.seed); !summary.isEmpty()) {
        emit message(summary);
        views_.training->setLiveSubtitle(summary);
    }
    views_.runBar->runEnded();
    emit seriesEnded(views_.training->liveRunId());
}

} // namespace attnlab::ui
