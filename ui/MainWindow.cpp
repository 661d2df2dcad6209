#include "ui/MainWindow.h"

#include "core/config/Registry.h"
#include "core/config/TrainConfig.h"
#include "core/platform/BlasLibrary.h"
#include "core/results/RunResult.h"
#include "core/store/RunRecord.h"
#include "core/store/RunStore.h"
#include "core/training/ComputeDevice.h"
#include "ui/analysis/ResultsMatrixView.h"
#include "ui/analysis/RunDetailsView.h"
#include "ui/analysis/RunDifferencesView.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/TrainingCurvesPlot.h"
#include "ui/runs/RunListPanel.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/TrainingEventBridge.h"
#include "ui/training/TrainingWorker.h"

#include <QAction>
#include <QCloseEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>

#include <exception>

namespace attnlab::ui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString entryName(const std::vector<RegistryEntry>& list, const std::string& id)
{
    const RegistryEntry* entry = Registry::find(list, id);
    return entry ? qs(entry->name) : qs(id);
}

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
    compareArea_ = new QSplitter(Qt::Vertical);
    compareArea_->setObjectName(QStringLiteral("compareSplitter"));
    compareArea_->addWidget(differences_);
    workspace_ = new QTabWidget;
    workspace_->setObjectName(QStringLiteral("workspaceTabs"));
    workspace_->setDocumentMode(true);
    workspace_->addTab(plots, tr("&Training"));
    workspace_->addTab(compareArea_, tr("&Compare"));
    workspace_->addTab(matrix_, tr("Results &matrix"));
    workspace_->addTab(details_, tr("Run &details"));
    auto* centre = splitter(Qt::Vertical, "centreSplitter", workspace_, runList_, 3, 1);
    auto* main = splitter(Qt::Horizontal, "mainSplitter", setupScroll, centre, 0, 1);
    main->setCollapsible(0, false);
    setCentralWidget(main);
    plots->setSizes({600, 480});
    centre->setSizes({620, 240});

    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(tr("&Refresh history"), QKeySequence::Refresh, this, &MainWindow::refreshRuns);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList tabs = {tr("&Training"), tr("&Compare selected runs"), tr("Results &matrix"), tr("Run &details")};
    for (int i = 0; i < tabs.size(); ++i) {
        QAction* show = view->addAction(tabs[i], this, [this, i] { workspace_->setCurrentIndex(i); });
        show->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        show->setObjectName(QStringLiteral("showWorkspace%1").arg(i));
    }
    QMenu* exportMenu = file->addMenu(tr("&Export table"));
    exportMenu->addAction(tr("Results &matrix…"), matrix_, &ResultsMatrixView::exportTable);
    exportMenu->addAction(tr("Run &differences…"), this, [this] {
        workspace_->setCurrentWidget(compareArea_);
        differences_->findChild<QPushButton*>(QStringLiteral("differencesExport"))->click();
    });

    device_ = new QLabel;
    device_->setObjectName(QStringLiteral("deviceLabel"));
    loss_ = new QLabel;
    loss_->setObjectName(QStringLiteral("lossLabel"));
    loss_->setMinimumWidth(loss_->fontMetrics().horizontalAdvance(QStringLiteral("loss 0.0000 · 0000.0 s")));
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("trainingProgress"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(tr("%v / %m steps"));
    progress_->setMaximumWidth(260);
    progress_->setVisible(false); // until there is a run to measure
    statusBar()->addPermanentWidget(device_);
    statusBar()->addPermanentWidget(loss_);
    statusBar()->addPermanentWidget(progress_);
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
    } catch (const std::exception& e) {
        // Without history the lab still trains (the worker reports its own store error, if any).
        statusBar()->showMessage(tr("Cannot open the run store: %1").arg(qs(e.what())));
    }

    connect(setup_, &SetupPanel::trainRequested, this, &MainWindow::startTraining);
    connect(setup_, &SetupPanel::stopRequested, this, &MainWindow::stopTraining);
    connect(runList_, &RunListPanel::runSelected, this, &MainWindow::showRun);
    const auto say = [this](const QString& text) { statusBar()->showMessage(text, 8000); };
    connect(matrix_, &ResultsMatrixView::statusMessage, this, say);
    connect(differences_, &RunDifferencesView::statusMessage, this, say);
    connect(runList_, &RunListPanel::tagsEdited, this, [this](qint64 runId, const QStringList& tags) {
        std::vector<std::string> list;
        for (const QString& t : tags)
            list.push_back(t.toStdString());
        writeToStore([&] { store_->setTags(runId, list); }, tr("tags of run #%1 saved").arg(runId));
    });
    connect(runList_, &RunListPanel::notesEdited, this, [this](qint64 runId, const QString& notes) {
        writeToStore([&] { store_->setNotes(runId, notes.toStdString()); }, tr("notes of run #%1 saved").arg(runId));
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

    refreshRuns();
    resize(1400, 900);
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
    const TrainConfig config = setup_->config();
    if (!worker_->start(config))
        return;
    setup_->setTrainingActive(true);
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
    if (!isTraining())
        return;
    worker_->stop();
    setup_->stopButton()->setEnabled(false);
    statusBar()->showMessage(tr("Stopping after the current batch…"));
}

void MainWindow::refreshRuns()
{
    if (!store_)
        return;
    try {
        std::vector<RunRecord> runs = store_->listRuns();
        runList_->setRuns(runs);
        runList_->setAggregates(store_->aggregates());
        matrix_->setRuns(std::move(runs));
        if (shownRunId_ != 0)
            runList_->selectRun(shownRunId_, true);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Cannot read the run history: %1").arg(qs(e.what())));
    }
}

void MainWindow::writeToStore(const std::function<void()>& write, const QString& done)
{
    if (!store_) {
        statusBar()->showMessage(tr("No run store is open: nothing was saved"));
        return;
    }
    try {
        write();
        statusBar()->showMessage(done, 5000);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Not saved: %1").arg(qs(e.what())));
    }
    // Not while the table is still finishing the edit that got us here.
    QMetaObject::invokeMethod(this, &MainWindow::refreshRuns, Qt::QueuedConnection);
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
    if (snapshots.isEmpty())
        return;
    liveAttention_ = snapshots.back(); // the heatmap shows the latest evaluation
    if (showingLive_)
        heatmap_->setSnapshot(*liveAttention_);
}

void MainWindow::onRunFinished(qint64 runId, const RunSummary& summary)
{
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
    setup_->setTrainingActive(false);
    refreshRuns();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
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
