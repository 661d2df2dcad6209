#include "ui/MainWindow.h"

#include "core/config/Registry.h"
#include "core/config/TrainConfig.h"
#include "core/platform/BlasLibrary.h"
#include "core/results/RunResult.h"
#include "core/store/RunExport.h"
#include "core/store/RunRecord.h"
#include "core/store/RunStore.h"
#include "core/training/ComputeDevice.h"
#include "ui/analysis/CompareView.h"
#include "ui/analysis/ResultsMatrixView.h"
#include "ui/analysis/RunDetailsView.h"
#include "ui/analysis/RunDifferencesView.h"
#include "ui/explorer/ExplorerView.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/presentation/PresentationMode.h"
#include "core/results/RepeatStatistics.h"
#include "ui/setup/DataImportDialog.h"
#include "ui/training/LiveComparisonView.h"
#include "ui/setup/PresetChooser.h"
#include "ui/plots/TrainingCurvesPlot.h"
#include "ui/runs/RunActions.h"
#include "ui/runs/RunListPanel.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/TrainingEventBridge.h"
#include "ui/training/TrainingWorker.h"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDockWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QShortcut>
#include <QToolBar>
#include <QVBoxLayout>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>

#include <algorithm>
#include <exception>

namespace attnlab::ui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString entryName(const std::vector<RegistryEntry>& list, const std::string& id) { return qs(Registry::nameOf(list, id)); }

// "1 run" / "3 runs": English plurals without a translation file (tr's %n alone would print "run(s)").
QString counted(int n, const char* one, const char* many)
{
    return n == 1 ? QCoreApplication::translate("MainWindow", one)
                  : QCoreApplication::translate("MainWindow", many).arg(QLocale().toString(n));
}
QString runsText(int n) { return counted(n, QT_TRANSLATE_NOOP("MainWindow", "1 run"), QT_TRANSLATE_NOOP("MainWindow", "%1 runs")); }

// Two panes that share the space in the ratio firstStretch : secondStretch as the window grows.
QSplitter* splitter(Qt::Orientation orientation, const char* name, QWidget* first, QWidget* second,
                    int firstStretch, int secondStretch)
{
    auto* split = new QSplitter(orientation);
    split->setObjectName(QLatin1String(name));
    split->addWidget(first);
    split->addWidget(second);
    split->setStretchFactor(0, firstStretch);
    split->setStretchFactor(1, secondStretch);
    return split;
}

} // namespace

MainWindow::MainWindow(const QString& dbPath, QWidget* parent) : QMainWindow(parent), dbPath_(dbPath)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Attention Lab"));

    worker_ = new TrainingWorker(dbPath_, this);
    setup_ = new SetupPanel;
    curves_ = new TrainingCurvesPlot;
    heatmap_ = new AttentionHeatmap;
    runList_ = new RunListPanel;
    runActions_ = new RunActions(runList_, this);

    auto* setupScroll = new QScrollArea;
    setupScroll->setObjectName(QStringLiteral("setupScroll"));
    setupScroll->setWidget(setup_);
    setupScroll->setWidgetResizable(true);
    setupScroll->setFrameShape(QFrame::NoFrame);
    setupScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setupScroll->setMinimumWidth(setup_->sizeHint().width() + 20);

    auto* plots = splitter(Qt::Horizontal, "plotSplitter", curves_, heatmap_, 5, 4);
    // The workspace: the training view, and the analyst's views over the run list's selection and the store.
    differences_ = new RunDifferencesView;
    matrix_ = new ResultsMatrixView;
    details_ = new RunDetailsView;
    explorer_ = new ExplorerView;
    compareArea_ = new QSplitter(Qt::Vertical);
    compareArea_->setObjectName(QStringLiteral("compareSplitter"));
    compareView_ = new CompareView;
    compareArea_->addWidget(compareView_);
    compareArea_->addWidget(differences_);
    compareArea_->setStretchFactor(0, 3);
    compareArea_->setStretchFactor(1, 1);
    workspace_ = new QTabWidget;
    workspace_->setObjectName(QStringLiteral("workspaceTabs"));
    workspace_->setDocumentMode(true);
    workspace_->addTab(plots, tr("&Training"));
    // The explorer's panels need ~630 px of height: below that (a projector's 720 lines less the toolbar
    // and the runs dock) it scrolls instead of pushing the window past the screen.
    auto* explorerPage = new QScrollArea;
    explorerPage->setObjectName(QStringLiteral("explorerScroll"));
    explorerPage->setWidget(explorer_);
    explorerPage->setWidgetResizable(true);
    explorerPage->setFrameShape(QFrame::NoFrame);
    explorerPage_ = explorerPage;
    workspace_->addTab(explorerPage, tr("E&xplorer"));
    workspace_->addTab(compareArea_, tr("&Compare"));
    workspace_->addTab(matrix_, tr("Results &matrix"));
    workspace_->addTab(details_, tr("Run &details"));
    live_ = new LiveComparisonView(dbPath_);
    live_->setObjectName(QStringLiteral("liveComparisonView"));
    workspace_->addTab(live_, tr("&Side by side"));
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
    plots->setSizes({600, 480});

    // The designer and the run history are docks: the user may move, float or close them, and the layout
    // is restored at the next start (QSettings "window/state").
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

    createRunToolBar();
    createMenus();

    device_ = new QLabel;
    device_->setObjectName(QStringLiteral("deviceLabel"));
    loss_ = new QLabel;
    loss_->setObjectName(QStringLiteral("lossLabel"));
    loss_->setMinimumWidth(loss_->fontMetrics().horizontalAdvance(QStringLiteral("loss 0.0000 · 0000.0 s")));
    statusBar()->addPermanentWidget(device_);
    statusBar()->addPermanentWidget(loss_);
    try {
        ComputeDevice::setThreads(0); // LibTorch starts with fewer threads than cores; say what a run will use
        device_->setText(qs(ComputeDevice::describe(ComputeDevice::resolve("auto"))));
        // A run on the reference BLAS is ~13x slower: say so where the device is named, not in a dialog.
        if (const std::string warning = BlasLibrary::slowWarning(); !warning.empty()) {
            device_->setText(device_->text() + tr(" · slow BLAS"));
            device_->setToolTip(qs(warning));
            device_->setObjectName(QStringLiteral("deviceLabel"));
            device_->setStyleSheet(QStringLiteral("color: #b35806; font-weight: bold"));
        }
    } catch (const std::exception& e) {
        device_->setText(tr("device unknown: %1").arg(qs(e.what())));
    }

    try {
        store_ = std::make_unique<RunStore>(dbPath_.toStdString());
        compareView_->setStore(store_.get());
        explorer_->setStore(store_.get());
    } catch (const std::exception& e) {
        // Without history the lab still trains (the worker reports its own store error, if any).
        statusBar()->showMessage(tr("Cannot open the run store: %1").arg(qs(e.what())));
    }

    connect(train_, &QPushButton::clicked, this, &MainWindow::startTraining);
    connect(stop_, &QPushButton::clicked, this, &MainWindow::stopTraining);
    connect(compare_, &QPushButton::clicked, this, &MainWindow::startComparison);
    connect(setup_, &SetupPanel::scenarioChosen, this, [this](const std::vector<TrainConfig>& configs, const QString& title) {
        pendingComparison_ = configs;
        pendingTitle_ = title;
        compare_->setText(tr("Compare (%1)").arg(configs.size()));
        statusBar()->showMessage(tr("%1: Compare trains its %2 configurations side by side").arg(title).arg(configs.size()), 8000);
    });
    connect(live_, &LiveComparisonView::runStored, this, &MainWindow::refreshRuns);
    connect(setup_, &SetupPanel::changed, this, &MainWindow::updateSummaryLine);
    connect(setup_, &SetupPanel::importRequested, this, &MainWindow::importOwnData);
    connect(setup_, &SetupPanel::message, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    connect(presentation_, &PresentationMode::activeChanged, this, [this](bool on) {
        summary_->setVisible(on);
        updateSummaryLine();
    });
    connect(runList_, &RunListPanel::runSelected, this, &MainWindow::showRun);
    const auto say = [this](const QString& text) { statusBar()->showMessage(text, 8000); };
    connect(matrix_, &ResultsMatrixView::statusMessage, this, say);
    connect(differences_, &RunDifferencesView::statusMessage, this, say);
    connect(explorer_, &ExplorerView::statusMessage, this, say);
    // The explorer opens a run's model only when it is looked at: selecting runs costs nothing otherwise.
    connect(workspace_, &QTabWidget::currentChanged, this, [this] {
        const qint64 run = showingLive_ ? liveRunId_ : shownRunId_;
        if (workspace_->currentWidget() == explorerPage_ && run > 0)
            explorer_->setRun(run);
    });
    connect(runList_, &RunListPanel::selectionChanged, this, &MainWindow::compareRuns);
    connect(runActions_, &RunActions::message, this, [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });
    connect(runActions_, &RunActions::warning, this, &MainWindow::showWarning);
    connect(runActions_, &RunActions::changed, this, &MainWindow::refreshRuns);
    connect(runActions_, &RunActions::runsDeleted, this, [this](const QList<qint64>& ids) {
        if (!ids.contains(shownRunId_))
            return;
        shownRunId_ = 0;
        curves_->clear();
        curves_->setTitle(tr("No run selected"));
        heatmap_->showPlaceholder(tr("Select a run to show its attention."));
        explorer_->clear(tr("Select a run in the run list to explore its model."));
    });
    connect(runList_, &RunListPanel::tagsEdited, this, [this](qint64 runId, const QStringList& tags) {
        std::vector<std::string> list;
        for (const QString& t : tags)
            list.push_back(t.toStdString());
        runActions_->write([&] { store_->setTags(runId, list); }, tr("tags of run #%1 saved").arg(runId));
    });
    connect(runList_, &RunListPanel::notesEdited, this, [this](qint64 runId, const QString& notes) {
        runActions_->write([&] { store_->setNotes(runId, notes.toStdString()); }, tr("notes of run #%1 saved").arg(runId));
    });
    // Straight from the bridge: its signals already arrive on this (GUI) thread, coalesced.
    const TrainingEventBridge* events = worker_->events();
    connect(events, &TrainingEventBridge::runStarted, this, &MainWindow::onRunStarted);
    connect(events, &TrainingEventBridge::progress, this, &MainWindow::onProgress);
    connect(events, &TrainingEventBridge::metricsArrived, this, &MainWindow::onMetrics);
    connect(events, &TrainingEventBridge::attentionArrived, this, &MainWindow::onAttention);
    connect(events, &TrainingEventBridge::runFinished, this, &MainWindow::onRunFinished);
    connect(events, &TrainingEventBridge::failed, this, &MainWindow::onFailed);
    connect(worker_, &TrainingWorker::idle, this, &MainWindow::onIdle);

    runActions_->setStore(store_.get(), dbPath_);
    refreshRuns();
    // 1400 x 900, or the screen where it is smaller (a projector's 1280 x 720). Not on the offscreen
    // platform, whose 800 x 600 "screen" would only shrink the tests' screenshots.
    QSize size(1400, 900);
    if (QGuiApplication::platformName() != QLatin1String("offscreen") && screen())
        size = size.boundedTo(screen()->availableGeometry().size());
    resize(size);
}

void MainWindow::createRunToolBar()
{
    // The primary actions, always visible whatever the designer's scroll position.
    runBar_ = addToolBar(tr("Run"));
    runBar_->setObjectName(QStringLiteral("runToolBar"));
    runBar_->setMovable(false);
    train_ = new QPushButton(tr("▶ Train"));
    train_->setObjectName(QStringLiteral("trainButton"));
    train_->setToolTip(tr("Train the designer's configuration (Ctrl+Enter; Space starts and stops)"));
    train_->setDefault(true);
    stop_ = new QPushButton(tr("■ Stop"));
    stop_->setObjectName(QStringLiteral("stopButton"));
    stop_->setToolTip(tr("Stop after the current batch; the run is stored as cancelled"));
    stop_->setEnabled(false);
    compare_ = new QPushButton(tr("Compare"));
    compare_->setObjectName(QStringLiteral("compareButton"));
    compare_->setToolTip(tr("Train the chosen lesson's configurations, or those added with Add to side by side "
                            "(Ctrl+B), at the same time on the same data and seed (Ctrl+Shift+Enter)"));
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("trainingProgress"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(tr("%v / %m steps"));
    progress_->setMinimumWidth(180);
    progress_->setMaximumWidth(320);
    progress_->setVisible(false); // until there is a run to measure
    runBar_->addWidget(train_);
    runBar_->addWidget(stop_);
    runBar_->addWidget(compare_);
    runBar_->addSeparator();
    runBar_->addWidget(progress_);

}

void MainWindow::updateSummaryLine()
{
    const TrainConfig c = setup_->config();
    summary_->setText(tr("%1 · %2 steps · d_model %3 · %4, lr %5 · seed %6")
                          .arg(runHeadline(0, c.model.model, c.model.position, c.dataset))
                          .arg(c.epochs > 0 ? tr("%1 epochs of").arg(c.epochs) + QLatin1Char(' ') + QString::number(c.steps) : QString::number(c.steps))
                          .arg(c.model.dModel)
                          .arg(qs(c.optimizer))
                          .arg(c.learningRate)
                          .arg(c.seed));
}

void MainWindow::restoreSettings()
{
    QSettings settings;
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
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        setup_->setOwnData(dialog->datasetId(), dialog->options());
        statusBar()->showMessage(tr("Your data is set up: Train (Ctrl+Enter) trains on it"), 8000);
    });
    dialog->open();
}

void MainWindow::addToComparison()
{
    TrainConfig config = setup_->config();
    if (const std::string problem = config.validate(); !problem.empty()) {
        statusBar()->showMessage(tr("Cannot add: %1").arg(qs(problem)));
        return;
    }
    if (config.checkpointDir.empty() && QSettings().value(QStringLiteral("training/keepCheckpoints"), true).toBool())
        config.checkpointDir = RunStore::checkpointFolderOf(dbPath_.toStdString());
    if (live_->isRunning()) { // the running comparison's queue: it starts when threads free up
        if (live_->enqueue(config) < 0)
            statusBar()->showMessage(tr("A comparison trains on one dataset; this configuration uses another"));
        workspace_->setCurrentWidget(live_);
        return;
    }
    if (!pendingTitle_.isEmpty()) { // a lesson was pending: the user builds their own list now
        pendingComparison_.clear();
        pendingTitle_.clear();
    }
    pendingComparison_.push_back(config);
    compare_->setText(tr("Compare (%1)").arg(pendingComparison_.size()));
    statusBar()->showMessage(tr("%1 added to the side-by-side list (%2 in all); Compare trains them together")
                                 .arg(runHeadline(0, config.model.model, config.model.position, config.dataset))
                                 .arg(pendingComparison_.size()), 8000);
}

void MainWindow::startComparison()
{
    if (pendingComparison_.size() < 2) {
        statusBar()->showMessage(tr("Choose a lesson in Start from, or add 2 to 4 configurations with Add to side by side "
                                    "(Ctrl+B), then Compare"));
        return;
    }
    std::vector<TrainConfig> configs = pendingComparison_;
    const bool keep = QSettings().value(QStringLiteral("training/keepCheckpoints"), true).toBool();
    for (TrainConfig& c : configs) {
        if (c.dataDir.empty())
            c.dataDir = setup_->config().dataDir;
        if (c.checkpointDir.empty() && keep)
            c.checkpointDir = RunStore::checkpointFolderOf(dbPath_.toStdString());
    }
    const QString problem = live_->start(configs);
    if (!problem.isEmpty()) {
        statusBar()->showMessage(tr("Cannot compare: %1").arg(problem));
        return;
    }
    pendingComparison_.clear();
    pendingTitle_.clear();
    compare_->setText(tr("Compare"));
    workspace_->setCurrentWidget(live_);
    // On a projector-sized window the runs need the designer's width more than the form does.
    const bool makeRoom = width() < 1600 && designerDock_->isVisible() && !designerDock_->isFloating();
    if (makeRoom)
        designerDock_->hide();
    statusBar()->showMessage(tr("Training %1 configurations side by side, tagged %2%3")
                                 .arg(configs.size())
                                 .arg(live_->comparisonTag(), makeRoom ? tr(" (Ctrl+D shows the designer again)") : QString()));
}

void MainWindow::startOrStop()
{
    if (isTraining())
        stopTraining();
    else
        startTraining();
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open run database…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open run database"), QFileInfo(dbPath_).absolutePath(),
                                                          tr("Run databases (*.sqlite *.db);;All files (*)"));
        if (!path.isEmpty())
            openStore(path);
    });
    open->setObjectName(QStringLiteral("openStoreAction"));
    open->setShortcut(QKeySequence::Open);
    QAction* import = file->addAction(tr("&Import runs…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import runs"), QFileInfo(dbPath_).absolutePath(),
            tr("Run databases and exports (*.sqlite *.db *.json);;All files (*)"));
        if (!path.isEmpty())
            importRuns(path);
    });
    import->setObjectName(QStringLiteral("importRunsAction"));
    file->addSeparator();
    QAction* ownData = file->addAction(tr("Train on &your own data…"), this, &MainWindow::importOwnData);
    ownData->setObjectName(QStringLiteral("importOwnDataAction"));
    ownData->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    QAction* openConfig = file->addAction(tr("Open &configuration…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open configuration"), QString(),
                                                          tr("Configurations (*.json);;All files (*)"));
        if (!path.isEmpty())
            openConfiguration(path);
    });
    openConfig->setObjectName(QStringLiteral("openConfigAction"));
    openConfig->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addMenu(setup_->presets()->recentMenu());
    QAction* saveConfig = file->addAction(tr("&Save configuration as…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save configuration"), QStringLiteral("experiment.json"),
                                                          tr("Configurations (*.json)"));
        if (!path.isEmpty())
            saveConfiguration(path);
    });
    saveConfig->setObjectName(QStringLiteral("saveConfigAction"));
    saveConfig->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* trainMenu = menuBar()->addMenu(tr("&Train"));
    QAction* trainAction = trainMenu->addAction(tr("&Train"), this, &MainWindow::startTraining);
    trainAction->setObjectName(QStringLiteral("trainAction"));
    trainAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    QAction* stopAction = trainMenu->addAction(tr("&Stop"), this, &MainWindow::stopTraining);
    stopAction->setObjectName(QStringLiteral("stopAction"));
    stopAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    // Space starts and stops, as in a media player; a focused text field or spin box keeps its space.
    QAction* startStop = trainMenu->addAction(tr("Start or stop"), this, &MainWindow::startOrStop);
    startStop->setObjectName(QStringLiteral("startStopAction"));
    startStop->setShortcut(QKeySequence(Qt::Key_Space));
    trainMenu->addSeparator();
    QAction* add = trainMenu->addAction(tr("&Add to side by side"), this, &MainWindow::addToComparison);
    add->setObjectName(QStringLiteral("addToComparisonAction"));
    add->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    QAction* compare = trainMenu->addAction(tr("&Compare side by side"), this, &MainWindow::startComparison);
    compare->setObjectName(QStringLiteral("compareAction"));
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return));
    QAction* stopAll = trainMenu->addAction(tr("Stop &every compared run"), live_, &LiveComparisonView::stopAll);
    stopAll->setObjectName(QStringLiteral("stopComparisonAction"));
    trainMenu->addSeparator();
    QAction* advanced = trainMenu->addAction(tr("Show &advanced settings"));
    advanced->setObjectName(QStringLiteral("advancedAction"));
    advanced->setCheckable(true);
    connect(advanced, &QAction::toggled, setup_, &SetupPanel::setAdvancedShown);
    connect(setup_->findChild<QCheckBox*>(QStringLiteral("advancedBox")), &QCheckBox::toggled, advanced, &QAction::setChecked);

    QMenu* runMenu = menuBar()->addMenu(tr("&Runs"));
    runMenu->addAction(tr("&Refresh history"), QKeySequence::Refresh, this, &MainWindow::refreshRuns);
    runMenu->addSeparator();
    QAction* filter = runMenu->addAction(tr("&Filter runs"), QKeySequence::Find, runList_, &RunListPanel::focusFilter);
    filter->setObjectName(QStringLiteral("filterRunsAction"));
    QAction* selectShown = runMenu->addAction(tr("Select all &shown"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                                              runList_, &RunListPanel::selectAllShown);
    selectShown->setObjectName(QStringLiteral("selectShownAction"));
    runMenu->addMenu(runList_->savedFiltersMenu());
    runMenu->addSeparator();
    // Every run can be explored later unless the user turns it off (disk use: a few MB per text run).
    QAction* keep = runMenu->addAction(tr("&Keep each run's weights"));
    keep->setObjectName(QStringLiteral("keepCheckpointsAction"));
    keep->setCheckable(true);
    keep->setChecked(QSettings().value(QStringLiteral("training/keepCheckpoints"), true).toBool());
    keep->setToolTip(tr("Save the best-dev and final weights with the vocabulary in checkpoints/ beside the run "
                        "database, so the Explorer can run typed sentences through them"));
    connect(keep, &QAction::toggled, this, [](bool on) { QSettings().setValue(QStringLiteral("training/keepCheckpoints"), on); });
    runMenu->addSeparator();
    runActions_->addTo(runMenu);

    // The workspace's tabs, and exporting the analyst's tables.
    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList tabs = {tr("&Training"), tr("E&xplorer: the selected run's model"), tr("&Compare selected runs"),
                              tr("Results &matrix"), tr("Run &details"), tr("&Side by side training")};
    for (int i = 0; i < tabs.size(); ++i) {
        QAction* show = view->addAction(tabs[i], this, [this, i] { workspace_->setCurrentIndex(i); });
        show->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        show->setObjectName(QStringLiteral("showWorkspace%1").arg(i));
    }
    view->addSeparator();
    view->addAction(designerDock_->toggleViewAction());
    view->addAction(runsDock_->toggleViewAction());
    designerDock_->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    view->addSeparator();
    QAction* present = view->addAction(tr("&Presentation mode"), presentation_, &PresentationMode::toggle);
    present->setObjectName(QStringLiteral("presentationAction"));
    present->setShortcut(QKeySequence(Qt::Key_F11));
    present->setCheckable(true);
    connect(presentation_, &PresentationMode::activeChanged, present, &QAction::setChecked);
    QAction* zoomIn = view->addAction(tr("Presentation zoom &in"), presentation_, &PresentationMode::zoomIn);
    zoomIn->setObjectName(QStringLiteral("zoomInAction"));
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction* zoomOut = view->addAction(tr("Presentation zoom &out"), presentation_, &PresentationMode::zoomOut);
    zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QMenu* exportMenu = new QMenu(tr("&Export table"), file);
    file->insertMenu(quit, exportMenu);
    file->insertSeparator(quit);
    exportMenu->addAction(tr("Results &matrix…"), matrix_, &ResultsMatrixView::exportTable);
    exportMenu->addAction(tr("Run &differences…"), this, [this] {
        workspace_->setCurrentWidget(compareArea_);
        differences_->findChild<QPushButton*>(QStringLiteral("differencesExport"))->click();
    });
}

void MainWindow::showWarning(const QString& title, const QString& text)
{
    // Window-modal but not blocking: the event loop (and a test driving it) keeps running.
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("warningMessage"));
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
    compareView_->setStore(nullptr); // never a dangling store in the view
    explorer_->setStore(nullptr);
    store_ = std::move(opened);
    compareView_->setStore(store_.get());
    explorer_->setStore(store_.get());
    compareView_->setRuns({});
    differences_->setRuns({});
    details_->clear(tr("Select a run in the run list to see its confusion matrix and per-class scores."));
    dbPath_ = path;
    worker_->setDbPath(path);
    QSettings().setValue(QStringLiteral("store/path"), path);
    shownRunId_ = 0;
    showingLive_ = false;
    curves_->clear();
    curves_->setTitle(tr("No run selected"));
    heatmap_->showPlaceholder(tr("Select a run to show its attention."));
    runActions_->setStore(store_.get(), dbPath_);
    refreshRuns();
    statusBar()->showMessage(tr("Opened %1: %2").arg(path, runsText(runList_->runCount())));
    return true;
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
    worker_->events()->disconnect(this);
    worker_->disconnect(this);
    worker_->stop();
    worker_->wait();
}

bool MainWindow::isTraining() const { return worker_->isRunning(); }

void MainWindow::startTraining()
{
    if (isTraining())
        return;
    repeatsLeft_ = setup_->repeats() - 1;
    repeatResults_.clear();
    startRun(setup_->config());
}

void MainWindow::startRun(TrainConfig config)
{
    if (config.checkpointDir.empty() && QSettings().value(QStringLiteral("training/keepCheckpoints"), true).toBool())
        config.checkpointDir = RunStore::checkpointFolderOf(dbPath_.toStdString());
    if (const std::string problem = config.validate(); !problem.empty()) {
        statusBar()->showMessage(tr("Cannot train: %1").arg(qs(problem)));
        return;
    }
    if (!worker_->start(config))
        return;
    setup_->setTrainingActive(true);
    train_->setEnabled(false);
    stop_->setEnabled(true);
    liveRunId_ = 0;
    liveConfig_ = config;
    liveMetrics_.clear();
    liveAttention_.reset();
    liveTitle_ = runHeadline(0, config.model.model, config.model.position, config.dataset);
    liveSubtitle_ = tr("loading the dataset…");
    showLive();
    progress_->setRange(0, config.steps);
    progress_->setValue(0);
    progress_->setVisible(true);
    loss_->clear();
    statusBar()->showMessage(tr("Loading %1…").arg(entryName(Registry::datasets(), config.dataset)));
}

void MainWindow::stopTraining()
{
    repeatsLeft_ = 0; // a stopped repeat series ends here
    if (!isTraining())
        return;
    worker_->stop();
    stop_->setEnabled(false);
    statusBar()->showMessage(tr("Stopping after the current batch…"));
}

void MainWindow::refreshRuns()
{
    if (!store_)
        return;
    try {
        // One query: the repeats are computed from the listed runs, not read again.
        std::vector<RunRecord> runs = store_->listRuns();
        runList_->setRuns(runs);
        runList_->setAggregates(RunStore::aggregatesOf(runs));
        matrix_->setRuns(std::move(runs));
        // The shown run (a live one that just appeared) becomes the selection, unless the user chose rows.
        if (shownRunId_ != 0 && runList_->selectedRunIds().isEmpty())
            runList_->selectRun(shownRunId_, true);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Cannot read the run history: %1").arg(qs(e.what())));
    }
}

QString MainWindow::runHeadline(qint64 runId, const std::string& model, const std::string& position,
                                const std::string& dataset)
{
    // A model that takes no position technique (RNNs, CNN, the time-series baselines) is named alone:
    // "DA-RNN + None" would suggest a choice that does not exist.
    const RegistryEntry* entry = Registry::find(Registry::models(), model);
    const bool takesPosition = entry && entry->positions.size() > 1;
    const QString what = takesPosition ? tr("%1 + %2 on %3")
                                             .arg(entryName(Registry::models(), model),
                                                  entryName(Registry::positions(), position),
                                                  entryName(Registry::datasets(), dataset))
                                       : tr("%1 on %2").arg(entryName(Registry::models(), model),
                                                            entryName(Registry::datasets(), dataset));
    return runId > 0 ? tr("Run #%1 · %2").arg(runId).arg(what) : what;
}

void MainWindow::showRun(qint64 runId)
{
    if (isTraining() && runId == liveRunId_) {
        showLive();
        return;
    }
    if (!store_)
        return;
    try {
        const std::optional<RunRecord> record = store_->run(runId);
        if (!record)
            return;
        showingLive_ = false;
        shownRunId_ = runId;
        int plannedSteps = record->steps;
        int evalEvery = 0;
        try {
            const TrainConfig config = TrainConfig::fromJson(record->configJson);
            plannedSteps = config.steps;
            evalEvery = config.evalEvery;
        } catch (const std::exception&) {
            // An unreadable config only costs the planned x range.
        }
        curves_->clear();
        curves_->setPlannedSteps(record->status == RunStatus::Completed ? plannedSteps : record->steps);
        curves_->setTitle(runHeadline(runId, record->model, record->position, record->dataset), qs(RunResult(record->summary()).brief()));
        curves_->setMetrics(store_->metrics(runId));
        details_->setRun(*record, store_->characteristics(runId));
        if (workspace_->currentWidget() == explorerPage_)
            explorer_->setRun(runId);
        if (const auto snapshot = store_->latestAttention(runId))
            heatmap_->setSnapshot(*snapshot);
        else
            showNoAttention(record->steps, evalEvery);
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

void MainWindow::showLive()
{
    // What arrived so far is in memory (nothing yet when the run has just started), and more is on its way.
    showingLive_ = true;
    shownRunId_ = liveRunId_;
    curves_->clear();
    curves_->setPlannedSteps(liveConfig_.steps);
    curves_->setTitle(liveTitle_, liveSubtitle_);
    curves_->addMetrics(liveMetrics_);
    if (liveAttention_)
        heatmap_->setSnapshot(*liveAttention_);
    else
        heatmap_->showPlaceholder(tr("Waiting for the first dev evaluation (every %1 steps)…").arg(liveConfig_.evalEvery));
}

void MainWindow::showNoAttention(int steps, int evalEvery)
{
    // Snapshots come with every dev evaluation; a run that passed one without any has no attention.
    if (evalEvery > 0 && steps < evalEvery)
        heatmap_->showPlaceholder(tr("The run ended before its first dev evaluation, so there is no attention to show."));
    else
        heatmap_->showPlaceholder(tr("This model has no attention."));
}

void MainWindow::onRunStarted(qint64 runId, const QString& device, qint64 parameters, const QString& modelSummary)
{
    liveRunId_ = runId;
    runActions_->setLiveRun(runId);
    liveTitle_ = runHeadline(runId, liveConfig_.model.model, liveConfig_.model.position, liveConfig_.dataset);
    if (!device.isEmpty()) { // empty when the run failed before choosing one
        device_->setText(device);
        device_->setToolTip(modelSummary);
        liveSubtitle_ = tr("training · %L1 parameters · %2").arg(parameters).arg(device);
    }
    if (showingLive_) {
        shownRunId_ = runId;
        curves_->setTitle(liveTitle_, liveSubtitle_);
    }
    statusBar()->showMessage(tr("Training run #%1 on %2").arg(runId).arg(device));
    refreshRuns(); // the new run shows up as running
}

void MainWindow::onProgress(int step, int totalSteps, double loss, double elapsedSeconds)
{
    if (progress_->maximum() != totalSteps)
        progress_->setRange(0, totalSteps);
    progress_->setValue(step);
    loss_->setText(tr("loss %1 · %2 s").arg(loss, 0, 'f', 4).arg(elapsedSeconds, 0, 'f', 1));
}

void MainWindow::onMetrics(const QVector<MetricPoint>& points)
{
    liveMetrics_.insert(liveMetrics_.end(), points.begin(), points.end());
    if (showingLive_)
        curves_->addMetrics(std::vector<MetricPoint>(points.begin(), points.end()));
}

void MainWindow::onAttention(const QVector<AttentionSnapshot>& snapshots)
{
    // The training view shows the probe sentence (probe 0) of the latest evaluation; the Explorer has the rest.
    const auto latest = std::find_if(snapshots.rbegin(), snapshots.rend(), [](const AttentionSnapshot& s) { return s.probe == 0; });
    if (latest == snapshots.rend())
        return;
    liveAttention_ = *latest;
    if (showingLive_)
        heatmap_->setSnapshot(*liveAttention_);
    explorer_->snapshotsChanged(liveRunId_);
}

void MainWindow::showRepeatSummary()
{
    // Mean ± sample std over the repeats, as the thesis reports (and `attnlab-cli train --repeat`).
    std::vector<double> dev, test;
    for (const RunSummary& s : repeatResults_)
        if (s.status == RunStatus::Completed) {
            dev.push_back(s.regression ? s.bestDevRmse : s.bestDevAccuracy);
            test.push_back(s.regression ? s.testRmse : s.testAccuracy);
        }
    if (test.size() < 2)
        return;
    const bool regression = repeatResults_.front().regression;
    const double scale = regression ? 1.0 : 100.0;
    const int decimals = regression ? 4 : 1;
    const QString text = tr("%1 runs (seeds %2…%3): dev %4, test %5%6")
                             .arg(test.size())
                             .arg(liveConfig_.seed + 1 - test.size())
                             .arg(liveConfig_.seed)
                             .arg(qs(RepeatStatistics(dev).format(scale, decimals)))
                             .arg(qs(RepeatStatistics(test).format(scale, decimals)))
                             .arg(regression ? tr(" RMSE") : tr(" %"));
    statusBar()->showMessage(text);
    curves_->setTitle(liveTitle_, text);
}

void MainWindow::onRunFinished(qint64 runId, const RunSummary& summary)
{
    repeatResults_.push_back(summary);
    const RunResult result(summary);
    const QString text = tr("Run #%1 %2").arg(runId).arg(qs(result.sentence()));
    statusBar()->showMessage(text);
    if (showingLive_) {
        liveSubtitle_ = qs(result.brief());
        curves_->setTitle(liveTitle_, liveSubtitle_);
        if (!liveAttention_)
            showNoAttention(summary.steps, liveConfig_.evalEvery);
    }
    if (summary.status == RunStatus::Failed || summary.status == RunStatus::Diverged)
        onFailed(tr("Run #%1 %2: %3").arg(runId).arg(qs(toString(summary.status)), qs(summary.message)));
}

void MainWindow::onFailed(const QString& message)
{
    statusBar()->showMessage(message);
    // Window-modal but not blocking: the event loop (and a test driving it) keeps running.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Training failed"), message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("failureMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::onIdle()
{
    // Repeats: the next seed, unless this run was stopped or failed; the summary after the last one.
    const bool completed = !repeatResults_.empty() && repeatResults_.back().status == RunStatus::Completed;
    if (repeatsLeft_ > 0 && completed) {
        --repeatsLeft_;
        TrainConfig next = liveConfig_;
        ++next.seed;
        refreshRuns();
        startRun(next);
        return;
    }
    if (repeatResults_.size() > 1)
        showRepeatSummary();
    repeatsLeft_ = 0;
    setup_->setTrainingActive(false);
    train_->setEnabled(true);
    stop_->setEnabled(false);
    runActions_->setLiveRun(0);
    refreshRuns();
    // The run's weights are in the store now (its writer has finished): let the explorer open them.
    if (liveRunId_ > 0 && explorer_->runId() == liveRunId_) {
        explorer_->clear(QString());
        if (workspace_->currentWidget() == explorerPage_)
            explorer_->setRun(liveRunId_);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    repeatsLeft_ = 0;
    if (live_->isRunning()) { // every compared run is stored as cancelled
        live_->stopAll();
        live_->waitAll();
    }
    if (isTraining()) {
        // The trainer checks the token before every batch; the store observer records the run as
        // cancelled on its way out, so waiting here loses nothing.
        statusBar()->showMessage(tr("Stopping the run before closing…"));
        worker_->stop();
        worker_->wait();
    }
    event->accept();
}

} // namespace attnlab::ui
