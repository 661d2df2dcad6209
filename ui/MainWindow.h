#pragma once
#include "core/config/TrainConfig.h"
#include "core/results/AttentionSnapshot.h"
#include "core/results/MetricPoint.h"
#include "core/results/RunSummary.h"

#include <QList>
#include <QMainWindow>
#include <QString>
#include <QVector>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTabWidget;
class QToolBar;

namespace attnlab {
class RunStore;
struct RunRecord;
}

namespace attnlab::ui {

class CompareView;
class ExplorerView;
class LessonDirector;
class LiveComparisonView;
class PresentationMode;
class RunReplay;
class ResultsMatrixView;
class RunDetailsView;
class RunDifferencesView;
class RunActions;
class StoreFileWatcher;
class RunListPoller;
class RunListPanel;
class RunToolBar;
class SetupPanel;
class DeviceLabel;
class TrainingView;
class Workspace;
class TrainingController;

// The designer in a dock on the left, the run toolbar (Train, Stop, Compare, progress) on top, the workspace
// (training, explorer, analyst views) in the middle, the run history in a dock below. The window is a view:
// a live run arrives through the worker's event signals, past runs are read back from the run store.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const QString& dbPath, QWidget* parent = nullptr);
    ~MainWindow() override;

    // The parts are reached by their object names (setupPanel, trainingCurvesPlot, attentionHeatmap,
    // runListPanel, trainingWorker, trainingProgress, deviceLabel, ...); the window's own state is here.
    bool isTraining() const;
    qint64 liveRunId() const;
    qint64 shownRunId() const; // the run in the plots (0: a live run not yet stored)
    QString storePath() const { return dbPath_; }

public slots:
    void startTraining();
    void stopTraining();
    void startOrStop(); // Space: whichever applies
    void importOwnData(); // the CSV/TSV import dialog, into the designer
    // File → Datasets…: which datasets are in the data folder, download or import them (with progress).
    // Opened by itself at the first start when no real dataset is there (restoreSettings).
    void showDatasets();
    // Side by side: the form's configuration joins the comparison to be started (or the one running);
    // startComparison trains the chosen lesson's configurations, or those added, at the same time.
    void addToComparison();
    void startComparison();
    // The last configuration, window layout (docks) and geometry from QSettings; saved on close. The app
    // calls it at start; tests that want a fresh window do not.
    void restoreSettings();
    void saveSettings() const;
    // File menu: a configuration JSON as `attnlab-cli train --config` reads it.
    void openConfiguration(const QString& path);
    bool saveConfiguration(const QString& path);
    void refreshRuns();
    void showRun(qint64 runId);
    // The selected runs in the Compare tab: their curves overlaid and what differs between them.
    void compareRuns(const QList<qint64>& runIds);
    // File menu. Switches the window (and the next run) to another run database and remembers it
    // (QSettings "store/path"); false, with the file named in a message, when it cannot be opened: the
    // current store stays. Refused while a run is training into the current one.
    bool openStore(const QString& path);
    // Adds the runs of another database (.sqlite) or export (.json); the status bar says how many.
    bool importRuns(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // The constructor's steps, in order.
    void buildParts();
    void buildDocks();
    void buildBars();
    void openStartingStore();
    void connectDesigner();
    void connectViews();
    void connectTraining();
    void watchStore();
    void fitToScreen();

    void attachStore(); // every part that reads or writes the run store gets store_ (none: it could not be opened)
    void onSeriesEnded(qint64 lastRunId); // nothing trains any more: the form unlocks, the explorer may open the run
    void loadTrainingReplay(qint64 runId); // a finished run shown in the Training tab
    void updateSummaryLine(); // the designer in one line, shown in presentation mode
    // Window-modal, not blocking; the box's object name lets tests find it.
    void showWarning(const QString& title, const QString& text, const char* objectName = "warningMessage");
    static bool keepCheckpoints(); // Runs → Keep each run's weights (QSettings)

    QString dbPath_;
    std::unique_ptr<RunStore> store_; // the GUI thread's own connection, for reading history
    TrainingController* controller_ = nullptr; // a single run's lifecycle (the Train button, repeats)
    SetupPanel* setup_;
    TrainingView* training_; // the Training tab: curves and attention, live or stored
    RunReplay* trainingReplay_; // above it: a finished run played back
    RunListPanel* runList_;
    Workspace* workspace_; // Training, Explorer, Compare, Results matrix, Run details, Side by side
    QSplitter* compareArea_;
    CompareView* compareView_;
    RunDifferencesView* differences_;
    ResultsMatrixView* matrix_;
    RunDetailsView* details_;
    ExplorerView* explorer_;
    QWidget* explorerPage_; // the explorer's tab: explorer_ in a scroll area
    DeviceLabel* device_;
    QLabel* loss_;
    RunToolBar* runBar_; // Train, Stop, Compare, progress
    QLabel* summary_; // the designer in one line (presentation mode)
    QDockWidget* designerDock_;
    LessonDirector* lessons_ = nullptr;
    QDockWidget* runsDock_;
    PresentationMode* presentation_;
    LiveComparisonView* live_;   // the Side by side tab
    RunActions* runActions_; // rename, tag, note, delete the selected runs (Runs menu, context menu)
    StoreFileWatcher* storeWatcher_ = nullptr; // store_ follows its file when it is deleted or replaced on disk
    RunListPoller* runPoller_ = nullptr;       // runs another process writes appear without Refresh
};

} // namespace attnlab::ui
