#include "ui/MainWindow.h"

#include "core/config/Registry.h"
#include "core/config/TrainConfig.h"
#include "core/results/RunRecord.h"
#include "core/results/RunResult.h"
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "ui/LessonDirector.h"
#include "ui/MainMenus.h"
#include "ui/StdStrings.h"
#include "ui/Workspace.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/ResultsMatrixView.h"
#include "ui/analysis/RunDetailsView.h"
#include "ui/analysis/RunDifferencesView.h"
#include "ui/explorer/AlignmentExplorer.h"
#include "ui/explorer/ExplorerView.h"
#include "ui/explorer/PretrainedLlmView.h"
#include "ui/explorer/PretrainedView.h"
#include "ui/presentation/PresentationMode.h"
#include "ui/runs/RunActions.h"
#include "ui/runs/RunListPanel.h"
#include "ui/runs/RunListPoller.h"
#include "ui/runs/StoreFileWatcher.h"
#include "ui/setup/DataImportDialog.h"
#include "ui/setup/DatasetsDialog.h"
#include "ui/setup/PresetChooser.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/DeviceLabel.h"
#include "ui/training/LiveComparisonView.h"
#include "ui/training/RunReplay.h"
#include "ui/training/RunToolBar.h"
#include "ui/training/TrainingController.h"
#include "ui/training/TrainingView.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace attnlab::ui {
namespace {


// "1 run" / "3 runs": English plurals without a translation file (tr's %n alone would print "run(s)").
QString runsText(int n)
{
    return n == 1 ? QCoreApplication::translate("MainWindow", "1 run")
                  : QCoreApplication::translate("MainWindow", "%1 runs").arg(QLocale().toString(n));
}

} // namespace

MainWindow::MainWindow(const QString& dbPath, QWidget* parent) : QMainWindow(parent), dbPath_(dbPath)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Attention Lab"));
    buildParts();
    buildDocks();
    buildBars();
    openStartingStore();
    connectDesigner();
    connectViews();
    connectTraining();
    watchStore();
    fitToScreen();
}

// The designer, the run list and the workspace (training, explorer, analyst views), and the one-line summary.
void MainWindow::buildParts()
{
    setup_ = new SetupPanel;
    runList_ = new RunListPanel;
    runActions_ = new RunActions(runList_, this);

    // The workspace: the training view, and the analyst's views over the run list's selection and the store.
    workspace_ = new Workspace(dbPath_);
    training_ = workspace_->training();
    trainingReplay_ = workspace_->trainingReplay();
    explorer_ = workspace_->explorer();
    explorerPage_ = workspace_->explorerPage();
    compareArea_ = workspace_->compareArea();
    compareView_ = workspace_->compareView();
    differences_ = workspace_->differences();
    matrix_ = workspace_->matrix();
    details_ = workspace_->details();
    live_ = workspace_->live();
    // In presentation mode the designer collapses to one line above the workspace.
    summary_ = new QLabel;
    summary_->setObjectName(QStringLiteral("designerSummary"));
    summary_->setWordWrap(true);
    summary_->setVisible(false);
    auto* centre = new QWidget;
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->addWidget(summary_);
    centreLayout->addWidget(workspace_, 1);
    setCentralWidget(centre);
}

// The designer and the run history are docks; presentation mode hides them.
void MainWindow::buildDocks()
{
    // The user may move, float or close them; the layout is restored at the next start (QSettings "window/state").
    auto* setupScroll = new QScrollArea;
    setupScroll->setObjectName(QStringLiteral("setupScroll"));
    setupScroll->setWidget(setup_);
    setupScroll->setWidgetResizable(true);
    setupScroll->setFrameShape(QFrame::NoFrame);
    setupScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setupScroll->setMinimumWidth(setup_->sizeHint().width() + 20);
    designerDock_ = new QDockWidget(tr("Designer"), this);
    designerDock_->setObjectName(QStringLiteral("designerDock"));
    designerDock_->setWidget(setupScroll);
    designerDock_->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    addDockWidget(Qt::LeftDockWidgetArea, designerDock_);
    runsDock_ = new QDockWidget(tr("Runs"), this);
    runsDock_->setObjectName(QStringLiteral("runsDock"));
    runsDock_->setWidget(runList_);
    addDockWidget(Qt::BottomDockWidgetArea, runsDock_);
    resizeDocks({runsDock_}, {170}, Qt::Vertical);
    presentation_ = new PresentationMode(this);
    presentation_->setHidden({designerDock_, runsDock_});
}

// The run toolbar, the menus, and the status bar's device and loss.
void MainWindow::buildBars()
{
    runBar_ = new RunToolBar(this);
    addToolBar(runBar_);
    MainMenus::build(*this, {setup_, live_, runList_, runActions_, designerDock_, runsDock_, presentation_, workspace_,
                             matrix_, differences_, compareArea_});

    device_ = new DeviceLabel;
    loss_ = new QLabel;
    loss_->setObjectName(QStringLiteral("lossLabel"));
    loss_->setMinimumWidth(loss_->fontMetrics().horizontalAdvance(QStringLiteral("loss 0.0000 · 0000.0 s")));
    statusBar()->addPermanentWidget(device_);
    statusBar()->addPermanentWidget(loss_);
}

// The GUI thread's own connection to the run store.
void MainWindow::openStartingStore()
{
    try {
        store_ = std::make_unique<RunStore>(dbPath_.toStdString());
    } catch (const std::exception& e) {
        // Without history the lab still trains (the worker reports its own store error, if any).
        statusBar()->showMessage(tr("Cannot open the run store: %1").arg(qs(e.what())));
    }
}

// The toolbar and the designer: train, stop, compare, lessons, own data, messages.
void MainWindow::connectDesigner()
{
    connect(runBar_, &RunToolBar::trainClicked, this, &MainWindow::startTraining);
    connect(runBar_, &RunToolBar::stopClicked, this, &MainWindow::stopTraining);
    connect(runBar_, &RunToolBar::compareClicked, this, &MainWindow::startComparison);
    connect(live_, &LiveComparisonView::planChanged, runBar_, &RunToolBar::setWaitingComparisons);
    connect(setup_, &SetupPanel::scenarioChosen, this, [this](const std::vector<TrainConfig>& configs, const QString& title,
                                                              const QStringList& expected, const QString& opens) {
        live_->setPlan(configs, title, expected, opens);
        statusBar()->showMessage(tr("%1: Compare trains its %2 configurations side by side").arg(title).arg(configs.size()), 8000);
    });
    connect(live_, &LiveComparisonView::runStored, this, &MainWindow::refreshRuns);
    lessons_ = new LessonDirector(this, workspace_, runList_, designerDock_, runsDock_);
    connect(lessons_, &LessonDirector::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(live_, &LiveComparisonView::lessonEnded, this,
            [this](const QString& opens, qint64 firstRun, qint64 lastRun) {
                lessons_->openAtEnd(opens, firstRun, lastRun, live_->endedRunIds());
            });
    connect(setup_->presets(), &PresetChooser::explorationChosen, this,
            [this](const QString& id) { lessons_->openExploring(id, qs(setup_->config().dataDir)); });
    connect(setup_, &SetupPanel::changed, this, &MainWindow::updateSummaryLine);
    connect(setup_, &SetupPanel::changed, this,
            [this] { // the data folder typed or picked: the models are looked for there
                const QString dir = qs(setup_->config().dataDir);
                workspace_->pretrained()->setDataDir(dir);
                workspace_->llm()->setDataDir(dir);
            });
    connect(setup_, &SetupPanel::importRequested, this, &MainWindow::importOwnData);
    connect(setup_, &SetupPanel::message, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(presentation_, &PresentationMode::activeChanged, this, [this](bool on) {
        summary_->setVisible(on);
        updateSummaryLine();
    });
}

// The run list and the views over the store: selection, replay, explorer, run actions.
void MainWindow::connectViews()
{
    connect(runList_, &RunListPanel::runSelected, this, &MainWindow::showRun);
    connect(trainingReplay_, &RunReplay::frame, this,
            [this](int step, const std::vector<std::vector<MetricPoint>>& metrics, const std::vector<const AttentionSnapshot*>& maps) {
                if (!metrics.empty())
                    training_->showReplayFrame(step, metrics.front(), maps.front());
            });
    const auto say = [this](const QString& text) { statusBar()->showMessage(text, 8000); };
    connect(matrix_, &ResultsMatrixView::statusMessage, this, say);
    connect(differences_, &RunDifferencesView::statusMessage, this, say);
    connect(explorer_, &ExplorerView::statusMessage, this, say);
    connect(workspace_->alignment(), &AlignmentExplorer::statusMessage, this, say);
    workspace_->pretrained()->setDataDir(qs(setup_->config().dataDir)); // opened when its tab is first shown
    connect(workspace_->pretrained(), &PretrainedView::statusMessage, this, say);
    connect(workspace_->pretrained(), &PretrainedView::installRequested, this, &MainWindow::showDatasets);
    workspace_->llm()->setDataDir(qs(setup_->config().dataDir));
    connect(workspace_->llm(), &PretrainedLlmView::statusMessage, this, say);
    connect(workspace_->llm(), &PretrainedLlmView::installRequested, this, &MainWindow::showDatasets);
    // The explorer opens a run's model only when it is looked at: selecting runs costs nothing otherwise.
    connect(workspace_, &QTabWidget::currentChanged, this, [this] {
        const qint64 run = training_->showingLive() ? training_->liveRunId() : training_->shownRunId();
        if (workspace_->currentWidget() == explorerPage_ && run > 0)
            workspace_->exploreRun(run);
    });
    connect(runList_, &RunListPanel::selectionChanged, this, &MainWindow::compareRuns);
    connect(runActions_, &RunActions::message, this, [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });
    connect(runActions_, &RunActions::warning, this, [this](const QString& title, const QString& text) { showWarning(title, text); });
    connect(runActions_, &RunActions::changed, this, &MainWindow::refreshRuns);
    connect(runActions_, &RunActions::runsDeleted, this, [this](const QList<qint64>& ids) {
        if (!ids.contains(training_->shownRunId()))
            return;
        training_->showNothing();
        trainingReplay_->clear();
        workspace_->clearExplorer(tr("Select a run in the run list to explore its model."));
    });
}

// A single run from the Train button, through its controller.
void MainWindow::connectTraining()
{
    controller_ = new TrainingController(dbPath_, {training_, trainingReplay_, runBar_, device_, loss_}, this);
    connect(controller_, &TrainingController::message, this, [this](const QString& text) { statusBar()->showMessage(text); });
    connect(controller_, &TrainingController::failed, this,
            [this](const QString& text) { showWarning(tr("Training failed"), text, "failureMessage"); });
    connect(controller_, &TrainingController::runBegun, this, [this](qint64 runId) {
        runActions_->setLiveRun(runId);
        refreshRuns(); // the new run shows up as running
    });
    connect(controller_, &TrainingController::runStored, this, &MainWindow::loadTrainingReplay);
    connect(controller_, &TrainingController::runsChanged, this, &MainWindow::refreshRuns);
    connect(controller_, &TrainingController::attentionArrived, explorer_, &ExplorerView::snapshotsChanged);
    connect(controller_, &TrainingController::seriesEnded, this, &MainWindow::onSeriesEnded);
}

// The store follows its file on disk; then the run list is read once.
void MainWindow::watchStore()
{
    storeWatcher_ = new StoreFileWatcher([this] { return isTraining() || live_->isRunning(); }, this);
    connect(storeWatcher_, &StoreFileWatcher::message, this, [this](const QString& text) { statusBar()->showMessage(text, 30000); });
    connect(storeWatcher_, &StoreFileWatcher::storeChanged, this, &MainWindow::refreshRuns);
    runPoller_ = new RunListPoller(this);
    runPoller_->setObjectName(QStringLiteral("runListPoller"));
    connect(runPoller_, &RunListPoller::runsChanged, this, &MainWindow::refreshRuns);
    attachStore();
    refreshRuns();
}

// 1400 x 900, or the screen where it is smaller.
void MainWindow::fitToScreen()
{
    // A projector's 1280 x 720 is smaller. Not on the offscreen platform, whose 800 x 600 "screen" would
    // only shrink the tests' screenshots.
    QSize size(1400, 900);
    if (QGuiApplication::platformName() != QLatin1String("offscreen") && screen())
        size = size.boundedTo(screen()->availableGeometry().size());
    resize(size);
}

void MainWindow::updateSummaryLine() { summary_->setText(setup_->summaryLine()); }

void MainWindow::restoreSettings()
{
    QSettings settings;
    // The first start without real data: say what works now and how to get the rest.
    if (!settings.value(QStringLiteral("welcome/shown"), false).toBool()) {
        settings.setValue(QStringLiteral("welcome/shown"), true);
        if (!DatasetsDialog::anyRealDataPresent(qs(setup_->config().dataDir)))
            QTimer::singleShot(0, this, &MainWindow::showDatasets);
    }
    setup_->restoreSettings();
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    setup_->saveSettings();
    if (!presentation_->isActive()) { // the layout the user arranged, not the projector's
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
    }
}

void MainWindow::openConfiguration(const QString& path)
{
    setup_->openConfigFile(path);
}

bool MainWindow::saveConfiguration(const QString& path)
{
    try {
        setup_->saveConfigFile(path);
        statusBar()->showMessage(tr("Saved the configuration to %1 (attnlab-cli train --config %1)").arg(path), 8000);
        return true;
    } catch (const std::exception& e) {
        showWarning(tr("Cannot save the configuration"), qs(e.what()));
        return false;
    }
}

void MainWindow::importOwnData()
{
    // Window-modal but not blocking (the event loop, and a test driving the dialog, keep running).
    auto* dialog = new DataImportDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QStringList recent = DataImportDialog::recentFiles();
    if (!recent.isEmpty())
        dialog->setFile(recent.front());
    // Designing a translation: the dialog reads sentence pairs (otherwise it keeps the task used last).
    if (Registry::taskOf(setup_->config().dataset) == TaskKind::Translation)
        dialog->setDatasetId(QStringLiteral("csv-pairs"));
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        setup_->setOwnData(dialog->datasetId(), dialog->options());
        statusBar()->showMessage(tr("Your data is set up: Train (Ctrl+Enter) trains on it"), 8000);
    });
    dialog->open();
}

void MainWindow::showDatasets()
{
    auto* dialog = new DatasetsDialog(qs(setup_->config().dataDir), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DatasetsDialog::datasetsChanged, setup_, &SetupPanel::dataFilesChanged);
    connect(dialog, &DatasetsDialog::datasetsChanged, workspace_->pretrained(), &PretrainedView::reload); // a model installed
    connect(dialog, &DatasetsDialog::datasetsChanged, workspace_->llm(), &PretrainedLlmView::reload);
    connect(dialog, &DatasetsDialog::lessonRequested, this, [this] {
        designerDock_->show();
        setup_->presets()->choose(QStringLiteral("lesson:san-vs-rnn"));
        statusBar()->showMessage(tr("SAN vs RNN on built-in data: Compare (Ctrl+Shift+Enter) trains its runs side by side"), 8000);
    });
    dialog->open(); // window-modal, not blocking
}

void MainWindow::addToComparison()
{
    TrainConfig config = setup_->config();
    if (const std::string problem = config.validate(); !problem.empty()) {
        statusBar()->showMessage(tr("Cannot add: %1").arg(setup_->inFieldTerms(problem)));
        return;
    }
    if (config.checkpointDir.empty() && keepCheckpoints())
        config.checkpointDir = RunStore::checkpointFolderOf(dbPath_.toStdString());
    statusBar()->showMessage(live_->addToPlan(config), 8000);
    if (live_->isRunning())
        workspace_->setCurrentWidget(live_);
}

void MainWindow::startComparison()
{
    const int count = live_->planSize();
    const QString problem = live_->startPlan(setup_->config().dataDir,
                                             keepCheckpoints() ? RunStore::checkpointFolderOf(dbPath_.toStdString()) : std::string());
    if (!problem.isEmpty()) {
        statusBar()->showMessage(problem);
        return;
    }
    workspace_->setCurrentWidget(live_);
    // On a projector-sized window the runs need the designer's width more than the form does.
    const bool makeRoom = lessons_->makeRoom();
    statusBar()->showMessage(tr("Training %1 configurations side by side, tagged %2%3")
                                 .arg(count)
                                 .arg(live_->comparisonTag(), makeRoom ? tr(" (Ctrl+D shows the designer again)") : QString()));
}

bool MainWindow::keepCheckpoints()
{
    return QSettings().value(QStringLiteral("training/keepCheckpoints"), true).toBool();
}

void MainWindow::startOrStop() { isTraining() ? stopTraining() : startTraining(); }

void MainWindow::showWarning(const QString& title, const QString& text, const char* objectName)
{
    // Window-modal but not blocking: the event loop (and a test driving it) keeps running.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(QLatin1String(objectName));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::openStore(const QString& path)
{
    if (isTraining()) {
        statusBar()->showMessage(tr("Stop the run before opening another run database: it writes to %1").arg(dbPath_));
        return false;
    }
    std::unique_ptr<RunStore> opened;
    try {
        opened = std::make_unique<RunStore>(path.toStdString());
    } catch (const std::exception& e) {
        // The store's message names the file and says why (locked, not a run database, newer schema).
        showWarning(tr("Cannot open the run database"), qs(e.what()));
        statusBar()->showMessage(tr("Still using %1").arg(dbPath_));
        return false;
    }
    store_.swap(opened); // the old store goes when `opened` does, after no view points to it any more
    dbPath_ = path;
    attachStore();
    compareView_->setRuns({});
    differences_->setRuns({});
    details_->clear(tr("Select a run in the run list to see its confusion matrix and per-class scores."));
    controller_->setDbPath(path);
    QSettings().setValue(QStringLiteral("store/path"), path);
    training_->showNothing();
    trainingReplay_->clear();
    refreshRuns();
    statusBar()->showMessage(tr("Opened %1: %2").arg(path, runsText(runList_->runCount())));
    return true;
}

void MainWindow::attachStore()
{
    compareView_->setStore(store_.get());
    workspace_->setStore(store_.get());
    runActions_->setStore(store_.get(), dbPath_);
    storeWatcher_->setStore(store_.get(), dbPath_);
    runPoller_->setStore(store_.get());
}

bool MainWindow::importRuns(const QString& path)
{
    if (!store_) {
        statusBar()->showMessage(tr("No run store is open: nothing was imported"));
        return false;
    }
    try {
        const RunExport::ImportResult result = RunExport(*store_).importFrom(path.toStdString());
        statusBar()->showMessage(tr("Imported %1 from %2; %3 already there (same uuid) skipped")
                                     .arg(runsText(result.added), path, QLocale().toString(result.skipped)));
    } catch (const std::exception& e) {
        showWarning(tr("Import failed"), tr("Nothing was imported from %1:\n%2").arg(path, qs(e.what())));
        return false;
    }
    refreshRuns();
    return true;
}

MainWindow::~MainWindow()
{
    // Children outlive the members: end the run before the window's parts go away under it.
    delete controller_;
}

bool MainWindow::isTraining() const { return controller_ && controller_->isRunning(); }
qint64 MainWindow::liveRunId() const { return training_->liveRunId(); }
qint64 MainWindow::shownRunId() const { return training_->shownRunId(); }

void MainWindow::startTraining()
{
    if (isTraining())
        return;
    TrainConfig config = setup_->config();
    if (config.checkpointDir.empty() && keepCheckpoints())
        config.checkpointDir = RunStore::checkpointFolderOf(dbPath_.toStdString());
    if (const std::string problem = config.validate(); !problem.empty()) {
        statusBar()->showMessage(tr("Cannot train: %1").arg(setup_->inFieldTerms(problem)));
        return;
    }
    if (controller_->start(config, setup_->repeats()))
        setup_->setTrainingActive(true);
}

void MainWindow::stopTraining() { controller_->stop(); }

void MainWindow::refreshRuns()
{
    if (!store_)
        return;
    if (storeWatcher_)
        storeWatcher_->check(); // the file may have been written back or replaced since: read what is there now
    try {
        // One query: the repeats are computed from the listed runs, not read again.
        if (runPoller_)
            runPoller_->listed(); // before the listing: a run that ends while it reads is seen by the next poll
        std::vector<RunRecord> runs = store_->listRuns();
        runList_->setRuns(runs);
        runList_->setAggregates(RunStore::aggregatesOf(runs));
        matrix_->setRuns(std::move(runs));
        // The shown run (a live one that just appeared) becomes the selection, unless the user chose rows.
        if (training_->shownRunId() != 0 && runList_->selectedRunIds().isEmpty())
            runList_->selectRun(training_->shownRunId(), true);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Cannot read the run history: %1").arg(qs(e.what())));
    }
}

void MainWindow::loadTrainingReplay(qint64 runId)
{
    if (!store_ || runId <= 0)
        return;
    try {
        trainingReplay_->load(*store_, {runId});
    } catch (const std::exception& e) {
        trainingReplay_->clear(); // the curves shown stay; only the replay is missing
        statusBar()->showMessage(tr("Cannot read run #%1 for its replay: %2").arg(runId).arg(qs(e.what())), 8000);
    }
}

void MainWindow::showRun(qint64 runId)
{
    if (isTraining() && runId == training_->liveRunId()) {
        trainingReplay_->clear();
        training_->showLive();
        return;
    }
    if (!store_)
        return;
    try {
        const std::optional<RunRecord> record = store_->run(runId);
        if (!record)
            return;
        int plannedSteps = record->steps;
        int evalEvery = 0;
        try {
            const TrainConfig config = TrainConfig::fromJson(record->configJson);
            plannedSteps = config.steps;
            evalEvery = config.evalEvery;
        } catch (const std::exception&) {
            // An unreadable config only costs the planned x range.
        }
        training_->showStored(runId, TrainingController::headline(runId, record->model, record->position, record->dataset),
                              qs(RunResult(record->summary()).brief()),
                              record->status == RunStatus::Completed ? plannedSteps : record->steps,
                              store_->metrics(runId), store_->latestAttention(runId), record->steps, evalEvery);
        loadTrainingReplay(runId);
        details_->setRun(*record, store_->characteristics(runId));
        if (workspace_->currentWidget() == explorerPage_)
            workspace_->exploreRun(runId);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Cannot read run #%1: %2").arg(runId).arg(qs(e.what())));
    }
}

void MainWindow::compareRuns(const QList<qint64>& runIds)
{
    if (!store_)
        return;
    try {
        std::vector<RunRecord> runs;
        for (qint64 id : runIds)
            if (auto record = store_->run(id))
                runs.push_back(std::move(*record));
        differences_->setRuns(std::move(runs));
        compareView_->setRuns(runIds);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Cannot read the selected runs: %1").arg(qs(e.what())));
    }
}

void MainWindow::onSeriesEnded(qint64 lastRunId)
{
    setup_->setTrainingActive(false);
    runActions_->setLiveRun(0);
    refreshRuns();
    // The run's weights are in the store now (its writer has finished): let the explorer open them.
    if (lastRunId > 0 && workspace_->exploredRunId() == lastRunId) {
        workspace_->clearExplorer(QString());
        if (workspace_->currentWidget() == explorerPage_)
            workspace_->exploreRun(lastRunId);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    if (live_->isRunning()) { // every compared run is stored as cancelled
        live_->stopAll();
        live_->waitAll();
    }
    if (isTraining())
        statusBar()->showMessage(tr("Stopping the run before closing…"));
    controller_->stopAndWait(); // the run is stored as cancelled on the way out: waiting loses nothing
    event->accept();
}

} // namespace attnlab::ui
