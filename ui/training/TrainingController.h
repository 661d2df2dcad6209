#pragma once
#include "core/config/TrainConfig.h"
#include "core/results/AttentionSnapshot.h"
#include "core/results/MetricPoint.h"
#include "core/results/RunSummary.h"
#include "ui/training/RepeatSeries.h"

#include <QObject>
#include <QString>
#include <QVector>

class QLabel;

namespace attnlab::ui {

class DeviceLabel;
class RunReplay;
class RunToolBar;
class TrainingView;
class TrainingWorker;

// A single run's lifecycle in the window: it starts the worker on a checked configuration, as a
// series of repeats (seed, seed + 1, ...) when asked, routes the engine's events to the parts a live run
// drives (the Training tab, the toolbar's progress, the status bar's device and loss), stops it, and says
// what happened. Side by side has its own owner (LiveComparisonView); MainWindow wires both to the designer,
// the run list and the store.
class TrainingController : public QObject {
    Q_OBJECT
public:
    struct Views {
        TrainingView* training;
        RunReplay* replay; // cleared while a run is live
        RunToolBar* runBar;
        DeviceLabel* device;
        QLabel* loss;
    };
    TrainingController(const QString& dbPath, Views views, QObject* parent = nullptr);
    ~TrainingController() override; // the run in progress is cancelled and waited for

    // "Run #12 · SSAN + Relative (RPR) on SST-fine" (no number while the run is not stored yet).
    static QString headline(qint64 runId, const std::string& model, const std::string& position, const std::string& dataset);

    bool isRunning() const;
    // Starts `repeats` runs of a configuration that validate() accepted; false while a run is going.
    bool start(const TrainConfig& config, int repeats);
    void stop();        // before the next batch; a repeat series ends here
    void stopAndWait(); // closing the window: the run is stored as cancelled before this returns
    // The store the next run writes to; false (nothing changes) while a run is going.
    bool setDbPath(const QString& path);

signals:
    void message(const QString& text); // for the status bar
    void failed(const QString& message); // a run failed or diverged: worth a warning
    void runBegun(qint64 runId);        // stored as running
    void runStored(qint64 runId);       // finished and stored (its replay can be read)
    void runsChanged();                 // between two repeats: the store has a new finished run
    void attentionArrived(qint64 runId);
    void seriesEnded(qint64 lastRunId); // nothing trains any more: the designer may unlock

private:
    bool startRun(const TrainConfig& config);
    void onRunStarted(qint64 runId, const QString& device, qint64 parameters, const QString& modelSummary);
    void onProgress(int step, int totalSteps, double loss, double elapsedSeconds);
    void onMetrics(const QVector<MetricPoint>& points);
    void onAttention(const QVector<AttentionSnapshot>& snapshots);
    void onRunFinished(qint64 runId, const RunSummary& summary);
    void onIdle();

    TrainingWorker* worker_;
    Views views_;
    RepeatSeries repeats_; // the runs still to train after this one, and the finished runs' results
    TrainConfig liveConfig_; // the live run's configuration (a repeat series: the next one is seed + 1)
};

} // namespace attnlab::ui
