#pragma once
#include "core/config/TrainConfig.h"
#include "core/results/RunSummary.h"

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QGridLayout;
class QTableView;

namespace attnlab::ui {

class AttentionHeatmap;
class RunReplay;
class ComparisonResultsModel;
class LiveComparisonPlot;
class TrainingQueue;

// Compare mode: 2-4 configurations trained at once on the same data, seed and batch order,
// each on its own worker with a share of the cores (TrainingQueue). Their train loss and dev accuracy
// (dev RMSE for time series) overlay live in one plot, a colour per run; probe 0's attention of each run
// is shown side by side, refreshed at each evaluation; each run has a header with its status, step and
// a Stop button; a result strip fills as runs end. Every run is a normal run in the store, tagged
// compare:<id>. Parts by object name: compareInfoLabel, threadsLabel, stopAllButton, exportPlotButton,
// liveComparisonPlot, compareResultsTable, and per run i: compareEntry<i>, entryTitle<i>, entryStatus<i>,
// entryStop<i>, entryHeatmap<i>, entryExpected<i> (a lesson on real data: what RESULTS.md measured). When all
// have ended, a replay bar plays them back in step at a pace a class can follow (comparisonReplay).
class LiveComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit LiveComparisonView(const QString& dbPath, QWidget* parent = nullptr);
    ~LiveComparisonView() override; // stops the runs and waits: they are stored as cancelled

    // A new comparison of these configurations (their seed becomes the first one's; one dataset).
    // Returns "" when it started, else why not, in words (also shown in the view).
    QString start(const std::vector<attnlab::TrainConfig>& configs);
    // Adds a run to the comparison; it starts when a worker is free. Its index, or -1 (another dataset).
    int enqueue(const attnlab::TrainConfig& config);
    // The comparison to start next, "the plan": a lesson's configurations, or those added one by one (Add to
    // side by side). planChanged says how many wait (the toolbar's "Compare (n)").
    // `expected`: per configuration, what its preset is expected to reach (shown on its panel and in the results).
    // `opens`: the view the window opens when the lesson's runs have all ended (TeachingScenario::opens).
    void setPlan(const std::vector<attnlab::TrainConfig>& configs, const QString& title, const QStringList& expected = {},
                 const QString& opens = {});
    // To the running comparison's queue when one runs, else to the plan (the user's own list replaces a
    // lesson's). What happened, in words, for the status bar.
    QString addToPlan(const attnlab::TrainConfig& config);
    int planSize() const { return static_cast<int>(plan_.size()); }
    // Starts the plan; configurations without a data or checkpoint folder get these. "" when it started,
    // else why not, in words.
    QString startPlan(const std::string& dataDir, const std::string& checkpointDir);
    // How many train at once (0: as many as start() was given, at most 4).
    void setConcurrency(int concurrency);
    void stopAll();          // every run stops before its next batch; queued ones never start
    void cancel(int index);  // the Stop button of run `index`
    bool isRunning() const;  // a run is queued or training
    bool waitAll(int msecs = -1); // for closing: true when every training thread ended in time

    TrainingQueue* queue() const { return queue_; }
    QString comparisonTag() const; // "compare:<id>" of the comparison shown
    QList<qint64> endedRunIds() const { return endedRunIds_; } // the last comparison to end, in the view's order
    // Saves the curves as PNG, SVG or PDF (by extension); "" when written, else what went wrong.
    QString exportPlot(const QString& path, int width = 1920, int height = 1200, int dpi = 192);
    // Once every run has ended: their stored curves and attention played back in step (RunReplay,
    // object name comparisonReplay); hidden while runs train.
    RunReplay* replay() const { return replay_; }

signals:
    void runStored(qint64 runId); // a compared run ended and is in the store
    // A lesson with a view to open ended (after allFinished): that view, and the first and last runs' ids.
    void lessonEnded(const QString& opens, qint64 firstRunId, qint64 lastRunId);
    void allFinished();
    void planChanged(int waiting);

private:
    QList<qint64> endedRunIds_;
    struct EntryWidgets {
        QWidget* panel = nullptr;
        QLabel* title = nullptr;
        QLabel* status = nullptr;
        QLabel* expected = nullptr; // what RESULTS.md measured for the preset; hidden when nothing was
        QPushButton* stop = nullptr;
        AttentionHeatmap* heatmap = nullptr;
        int step = 0, totalSteps = 0;
    };
    void reset();
    void addEntry(int index);
    void updateEntry(int index);
    void updateThreadsLabel();
    QString labelOf(const attnlab::TrainConfig& config) const;
    void onExportClicked();

    TrainingQueue* queue_;
    QString dbPath_;
    RunReplay* replay_;
    QLabel* info_;
    QLabel* threads_;
    QPushButton* stopAll_;
    QPushButton* export_;
    LiveComparisonPlot* plot_;
    QWidget* entriesBox_;
    QGridLayout* entriesGrid_;
    QTableView* results_;
    ComparisonResultsModel* resultsModel_;
    std::vector<EntryWidgets> entries_;
    std::vector<attnlab::TrainConfig> plan_;
    QString planTitle_; // the lesson's title; empty: the user's own list
    QString planOpens_, runningOpens_; // the lesson's view to open at its end (waiting, running)
    QStringList planExpected_; // per plan entry, its preset's expected result ("" for none)
    QStringList expected_;     // the same for the comparison shown, by queue index
};

} // namespace attnlab::ui
