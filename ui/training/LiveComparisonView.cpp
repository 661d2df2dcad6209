#include "ui/training/LiveComparisonView.h"

#include "core/config/Registry.h"
#include "core/store/RunStore.h"
#include "ui/StdStrings.h"
#include "ui/analysis/PlotExporter.h"
#include "ui/analysis/RunPalette.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/LiveComparisonPlot.h"
#include "ui/training/RunReplay.h"
#include "ui/training/ComparisonResultsModel.h"
#include "ui/training/TrainingQueue.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStringList>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>
#include <set>

namespace attnlab::ui {
namespace {

QString entryName(const std::vector<RegistryEntry>& list, const std::string& id) { return qs(Registry::nameOf(list, id)); }

// "1 thread" / "2 threads": English plurals without a translation file.
QString threadsText(int n)
{
    return n == 1 ? QCoreApplication::translate("LiveComparisonView", "1 thread")
                  : QCoreApplication::translate("LiveComparisonView", "%1 threads").arg(n);
}

QString swatchStyle(const QColor& colour)
{
    return QStringLiteral("background-color: %1; border-radius: 3px;").arg(colour.name());
}

} // namespace

LiveComparisonView::LiveComparisonView(const QString& dbPath, QWidget* parent)
    : QWidget(parent), queue_(new TrainingQueue(dbPath, this)), dbPath_(dbPath), replay_(new RunReplay(this))
{
    setObjectName(QStringLiteral("liveComparisonView"));

    info_ = new QLabel(tr("No comparison yet: choose 2 to 4 configurations and start them together."));
    info_->setObjectName(QStringLiteral("compareInfoLabel"));
    info_->setWordWrap(true);
    threads_ = new QLabel;
    threads_->setObjectName(QStringLiteral("threadsLabel"));
    export_ = new QPushButton(tr("Export plot…"));
    export_->setObjectName(QStringLiteral("exportPlotButton"));
    export_->setToolTip(tr("Save the curves as PNG, SVG or PDF"));
    stopAll_ = new QPushButton(tr("Stop all"));
    stopAll_->setObjectName(QStringLiteral("stopAllButton"));
    stopAll_->setEnabled(false);
    auto* header = new QHBoxLayout;
    header->addWidget(info_, 1);
    header->addWidget(threads_);
    header->addWidget(export_);
    header->addWidget(stopAll_);

    plot_ = new LiveComparisonPlot;
    entriesBox_ = new QWidget;
    entriesBox_->setObjectName(QStringLiteral("compareEntries"));
    entriesGrid_ = new QGridLayout(entriesBox_);
    entriesGrid_->setContentsMargins(0, 0, 0, 0);
    entriesGrid_->setSpacing(6);
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("compareEntriesScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(entriesBox_);

    auto* middle = new QSplitter(Qt::Horizontal);
    middle->setObjectName(QStringLiteral("compareSplitter"));
    middle->addWidget(plot_);
    middle->addWidget(scroll);
    middle->setStretchFactor(0, 4);
    middle->setStretchFactor(1, 5);
    middle->setSizes({520, 680}); // the maps' side has no size hint worth the name: give it its share
    entriesBox_->setMinimumWidth(2 * 250);

    resultsModel_ = new ComparisonResultsModel(this);
    results_ = new QTableView;
    results_->setObjectName(QStringLiteral("compareResultsTable"));
    results_->setModel(resultsModel_);
    results_->verticalHeader()->hide();
    results_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    results_->horizontalHeader()->setSectionResizeMode(ComparisonResultsModel::RunColumn, QHeaderView::Stretch);
    results_->setSelectionBehavior(QAbstractItemView::SelectRows);
    results_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    results_->setMinimumHeight(60);

    auto* vertical = new QSplitter(Qt::Vertical);
    vertical->setObjectName(QStringLiteral("compareVerticalSplitter"));
    vertical->addWidget(middle);
    vertical->addWidget(results_);
    vertical->setStretchFactor(0, 5);
    vertical->setStretchFactor(1, 1);
    vertical->setSizes({560, 130}); // the strip: a header and up to four rows

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(replay_);
    layout->addWidget(vertical, 1);
    connect(replay_, &RunReplay::frame, this,
            [this](int, const std::vector<std::vector<MetricPoint>>& metrics, const std::vector<const AttentionSnapshot*>& maps) {
                for (std::size_t i = 0; i < metrics.size() && i < entries_.size(); ++i) {
                    plot_->clearMetrics(static_cast<int>(i));
                    plot_->addMetrics(static_cast<int>(i), metrics[i]);
                    if (maps[i])
                        entries_[i].heatmap->setSnapshot(*maps[i]);
                }
            });

    connect(stopAll_, &QPushButton::clicked, this, &LiveComparisonView::stopAll);
    connect(export_, &QPushButton::clicked, this, &LiveComparisonView::onExportClicked);

    connect(queue_, &TrainingQueue::entryAdded, this, &LiveComparisonView::addEntry);
    connect(queue_, &TrainingQueue::entryStateChanged, this, [this](int index) {
        updateEntry(index);
        updateThreadsLabel();
    });
    connect(queue_, &TrainingQueue::progress, this, [this](int index, int step, int total, double, double) {
        auto& e = entries_[static_cast<std::size_t>(index)];
        e.step = step;
        e.totalSteps = total;
        plot_->setPlannedSteps(total);
        updateEntry(index);
    });
    connect(queue_, &TrainingQueue::runStarted, this, [this](int index, qint64, const QString&, qint64) {
        updateEntry(index);
    });
    connect(queue_, &TrainingQueue::metricsArrived, this, [this](int index, const QVector<MetricPoint>& points) {
        plot_->addMetrics(index, std::vector<MetricPoint>(points.begin(), points.end()));
    });
    connect(queue_, &TrainingQueue::attentionArrived, this,
            [this](int index, const QVector<AttentionSnapshot>& snapshots) {
                // The same probe for every run (probe 0, the dataset's probe sentence): the latest one.
                for (auto it = snapshots.rbegin(); it != snapshots.rend(); ++it) {
                    if (it->probe == 0) {
                        entries_[static_cast<std::size_t>(index)].heatmap->setSnapshot(*it);
                        break;
                    }
                }
            });
    connect(queue_, &TrainingQueue::runFinished, this, [this](int index, qint64 runId, const RunSummary& summary) {
        const auto& entry = queue_->entry(index);
        resultsModel_->addResult(runId, labelOf(entry.config), RunPalette::colour(index), summary, expected_.value(index));
        auto& e = entries_[static_cast<std::size_t>(index)];
        if (!e.heatmap->hasSnapshot()) {
            const bool beforeFirst = entry.config.evalEvery > 0 && summary.steps < entry.config.evalEvery;
            e.heatmap->showPlaceholder(beforeFirst ? tr("The run ended before its first dev evaluation, so there is no attention to show.")
                                                   : tr("This model has no attention."));
        }
        emit runStored(runId);
    });
    connect(queue_, &TrainingQueue::failed, this, [this](int index, const QString& message) {
        auto& e = entries_[static_cast<std::size_t>(index)];
        if (!e.heatmap->hasSnapshot())
            e.heatmap->showPlaceholder(tr("The run failed: %1").arg(message));
        if (const qint64 runId = queue_->entry(index).runId; runId > 0)
            emit runStored(runId);
    });
    connect(queue_, &TrainingQueue::allFinished, this, [this] {
        stopAll_->setEnabled(false);
        updateThreadsLabel();
        std::vector<qint64> runIds; // in the view's order; a run that never reached the store plays as empty
        for (int i = 0; i < queue_->count(); ++i)
            runIds.push_back(queue_->entry(i).runId);
        try {
            replay_->load(RunStore(dbPath_.toStdString()), runIds);
        } catch (const std::exception&) {
            replay_->clear(); // the store is unreadable now: nothing to replay, the live results stay
        }
        endedRunIds_.clear();
        for (qint64 id : runIds)
            if (id > 0)
                endedRunIds_.append(id);
        emit allFinished();
        if (!runningOpens_.isEmpty() && !runIds.empty())
            emit lessonEnded(std::exchange(runningOpens_, QString()), runIds.front(), runIds.back());
    });
}

LiveComparisonView::~LiveComparisonView()
{
    queue_->disconnect(this);
    // The queue (a child) stops its runs and waits for them when it is deleted.
}

void LiveComparisonView::reset()
{
    replay_->clear();
    for (auto& e : entries_)
        delete e.panel;
    entries_.clear();
    plot_->clear();
    resultsModel_->clear();
}

QString LiveComparisonView::labelOf(const TrainConfig& config) const
{
    return qs(Registry::modelLabel(config.model.model, config.model.position));
}

void LiveComparisonView::setPlan(const std::vector<TrainConfig>& configs, const QString& title, const QStringList& expected,
                                 const QString& opens)
{
    plan_ = configs;
    planTitle_ = title;
    planOpens_ = opens;
    planExpected_ = expected;
    emit planChanged(planSize());
}

QString LiveComparisonView::addToPlan(const TrainConfig& config)
{
    if (isRunning()) // the running comparison's queue: it starts when threads free up
        return enqueue(config) < 0 ? tr("A comparison trains on one dataset; this configuration uses another")
                                   : tr("%1 joins the running comparison").arg(labelOf(config));
    if (!planTitle_.isEmpty()) { // a lesson was waiting: the user builds their own list now
        plan_.clear();
        planTitle_.clear();
        planExpected_.clear();
        planOpens_.clear();
    }
    plan_.push_back(config);
    emit planChanged(planSize());
    return tr("%1 added to the side-by-side list (%2 in all); Compare trains them together")
        .arg(labelOf(config))
        .arg(planSize());
}

QString LiveComparisonView::startPlan(const std::string& dataDir, const std::string& checkpointDir)
{
    if (plan_.size() < 2)
        return tr("Choose a lesson in Start from, or add 2 to 4 configurations with Add to side by side (Ctrl+B), then Compare");
    std::vector<TrainConfig> configs = plan_;
    for (TrainConfig& c : configs) {
        if (c.dataDir.empty())
            c.dataDir = dataDir;
        if (c.checkpointDir.empty())
            c.checkpointDir = checkpointDir;
    }
    const QStringList expected = planExpected_;
    if (const QString problem = start(configs); !problem.isEmpty())
        return tr("Cannot compare: %1").arg(problem);
    for (int i = 0; i < static_cast<int>(entries_.size()) && i < expected.size(); ++i)
        if (!expected[i].isEmpty()) {
            entries_[static_cast<std::size_t>(i)].expected->setText(tr("expected: %1").arg(expected[i]));
            entries_[static_cast<std::size_t>(i)].expected->setVisible(true);
        }
    expected_ = expected;
    runningOpens_ = planOpens_;
    planOpens_.clear();
    plan_.clear();
    planTitle_.clear();
    planExpected_.clear();
    emit planChanged(0);
    return {};
}

QString LiveComparisonView::start(const std::vector<TrainConfig>& configs)
{
    if (queue_->isRunning())
        return tr("A comparison is still running.");
    reset();
    const QString problem = queue_->begin(configs);
    if (!problem.isEmpty()) {
        info_->setText(problem);
        return problem;
    }
    expected_.clear();
    // Same seed for all (the queue made it so); the batch order is the same where batch sizes are.
    std::set<int> batchSizes;
    for (const auto& config : configs)
        batchSizes.insert(config.batchSize);
    const QString dataset = entryName(Registry::datasets(), queue_->dataset());
    const QString runs = tr("%1 runs").arg(static_cast<int>(configs.size()));
    info_->setText(batchSizes.size() == 1
                       ? tr("%1 on %2 · seed %3, same data and batch order · tagged %4")
                             .arg(runs, dataset).arg(queue_->seed()).arg(queue_->tag())
                       : tr("%1 on %2 · seed %3, same data (batch sizes differ) · tagged %4")
                             .arg(runs, dataset).arg(queue_->seed()).arg(queue_->tag()));
    plot_->setTitle(tr("Compared runs on %1").arg(dataset));
    stopAll_->setEnabled(queue_->isRunning());
    updateThreadsLabel();
    return {};
}

int LiveComparisonView::enqueue(const TrainConfig& config)
{
    if (queue_->comparisonId().isEmpty() || (!queue_->isRunning() && queue_->count() == 0))
        return start({config}).isEmpty() ? 0 : -1;
    const int index = queue_->enqueue(config);
    if (index >= 0)
        stopAll_->setEnabled(true);
    return index;
}

void LiveComparisonView::setConcurrency(int concurrency)
{
    queue_->setConcurrency(concurrency);
}

void LiveComparisonView::stopAll()
{
    queue_->stopAll();
}

void LiveComparisonView::cancel(int index)
{
    queue_->cancel(index);
}

bool LiveComparisonView::isRunning() const
{
    return queue_->isRunning();
}

bool LiveComparisonView::waitAll(int msecs)
{
    return queue_->waitAll(msecs);
}

QString LiveComparisonView::comparisonTag() const
{
    return queue_->comparisonId().isEmpty() ? QString() : queue_->tag();
}

void LiveComparisonView::addEntry(int index)
{
    const auto& entry = queue_->entry(index);
    const QColor colour = RunPalette::colour(index);
    EntryWidgets e;
    e.panel = new QFrame;
    e.panel->setObjectName(QStringLiteral("compareEntry%1").arg(index));
    static_cast<QFrame*>(e.panel)->setFrameShape(QFrame::StyledPanel);
    auto* swatch = new QLabel;
    swatch->setObjectName(QStringLiteral("entrySwatch%1").arg(index));
    swatch->setFixedSize(14, 14);
    swatch->setStyleSheet(swatchStyle(colour));
    e.title = new QLabel(labelOf(entry.config));
    e.title->setObjectName(QStringLiteral("entryTitle%1").arg(index));
    QFont bold = e.title->font();
    bold.setBold(true);
    e.title->setFont(bold);
    e.status = new QLabel;
    e.status->setObjectName(QStringLiteral("entryStatus%1").arg(index));
    e.expected = new QLabel;
    e.expected->setObjectName(QStringLiteral("entryExpected%1").arg(index));
    e.expected->setToolTip(tr("What docs/RESULTS.md measured for this preset: the run should land near it"));
    e.expected->setVisible(false);
    e.stop = new QPushButton(tr("Stop"));
    e.stop->setObjectName(QStringLiteral("entryStop%1").arg(index));
    e.stop->setToolTip(tr("Stop this run (it is stored as cancelled), or take it out of the queue"));
    connect(e.stop, &QPushButton::clicked, this, [this, index] { queue_->cancel(index); });
    e.heatmap = new AttentionHeatmap;
    e.heatmap->setObjectName(QStringLiteral("entryHeatmap%1").arg(index));
    // Side by side they share the width: a smaller floor than the main window's single map.
    if (auto* plot = e.heatmap->findChild<QWidget*>(QStringLiteral("attentionPlot")))
        plot->setMinimumSize(220, 200);

    // Title and Stop on one line, the status (run, state, step, threads) under them: four narrow panels
    // still show all of it.
    auto* head = new QHBoxLayout;
    head->addWidget(swatch);
    head->addWidget(e.title, 1);
    head->addWidget(e.stop);
    auto* box = new QVBoxLayout(e.panel);
    box->setContentsMargins(4, 4, 4, 4);
    box->setSpacing(2);
    box->addLayout(head);
    box->addWidget(e.status);
    box->addWidget(e.expected);
    box->addWidget(e.heatmap, 1);

    entries_.push_back(e);
    // Two a row: two runs side by side, four as a 2 x 2 grid.
    entriesGrid_->addWidget(e.panel, index / 2, index % 2);
    plot_->addRun(labelOf(entry.config), colour);
    // An epoch-based run's length is known from its first progress report (see the progress handler).
    plot_->setPlannedSteps(entry.config.epochs > 0 ? 0 : std::max(entry.config.steps, 0));
    updateEntry(index);
}

void LiveComparisonView::updateEntry(int index)
{
    if (index < 0 || index >= static_cast<int>(entries_.size()))
        return;
    const auto& entry = queue_->entry(index);
    auto& e = entries_[static_cast<std::size_t>(index)];
    const QLocale locale;
    const QString steps = e.totalSteps > 0 ? tr("step %1 / %2").arg(locale.toString(e.step), locale.toString(e.totalSteps))
                                           : QString();
    QString text;
    switch (entry.state) {
    case TrainingQueue::State::Queued:
        text = tr("queued: starts when a run ends");
        if (!e.heatmap->hasSnapshot())
            e.heatmap->showPlaceholder(tr("Queued: this run starts when threads free up."));
        break;
    case TrainingQueue::State::Running:
        text = entry.stopRequested ? tr("stopping…")
                                   : tr("running · %1 · %2").arg(steps.isEmpty() ? tr("loading") : steps,
                                                                 threadsText(entry.threads));
        if (!Registry::hasAttention(entry.config.model.model)) {
            const QString none = tr("%1 has no attention to show: compare its curves with the others'.").arg(labelOf(entry.config));
            if (e.heatmap->placeholderText() != none)
                e.heatmap->showPlaceholder(none);
        } else if (!e.heatmap->hasSnapshot() && e.step == 0)
            e.heatmap->showPlaceholder(tr("Waiting for the first dev evaluation (every %1 steps)…").arg(entry.config.evalEvery));
        break;
    case TrainingQueue::State::Completed:
        text = tr("completed · %1").arg(steps);
        break;
    case TrainingQueue::State::Cancelled:
        text = entry.runId > 0 ? tr("cancelled · %1").arg(steps.isEmpty() ? tr("before its first step") : steps)
                               : tr("cancelled before it started");
        if (entry.runId == 0 && !e.heatmap->hasSnapshot())
            e.heatmap->showPlaceholder(tr("Taken out of the queue."));
        break;
    case TrainingQueue::State::Failed:
        text = entry.summary ? tr("%1 · %2").arg(qs(toString(entry.summary->status)), steps) : tr("failed");
        e.status->setToolTip(entry.message);
        break;
    }
    if (entry.runId > 0)
        text = tr("#%1 %2").arg(entry.runId).arg(text);
    e.status->setText(text);
    const bool active = entry.state == TrainingQueue::State::Queued
        || (entry.state == TrainingQueue::State::Running && !entry.stopRequested);
    e.stop->setEnabled(active);
    stopAll_->setEnabled(queue_->isRunning());
}

void LiveComparisonView::updateThreadsLabel()
{
    std::set<int> shares;
    int running = 0;
    for (int i = 0; i < queue_->count(); ++i) {
        if (queue_->entry(i).state == TrainingQueue::State::Running) {
            shares.insert(queue_->entry(i).threads);
            ++running;
        }
    }
    const int cores = TrainingQueue::cores();
    if (running == 0) {
        threads_->setText(tr("%1 cores · %2 at once").arg(cores).arg(queue_->concurrency()));
    } else if (shares.size() == 1) {
        threads_->setText(tr("%1 each · %2 running on %3 cores").arg(threadsText(*shares.begin())).arg(running).arg(cores));
    } else {
        QStringList parts;
        for (int i = 0; i < queue_->count(); ++i) {
            if (queue_->entry(i).state == TrainingQueue::State::Running)
                parts << QString::number(queue_->entry(i).threads);
        }
        threads_->setText(tr("threads %1 · %2 running on %3 cores").arg(parts.join(QStringLiteral(", "))).arg(running).arg(cores));
    }
}

QString LiveComparisonView::exportPlot(const QString& path, int width, int height, int dpi)
{
    return PlotExporter::save({plot_}, path, width, height, dpi);
}

void LiveComparisonView::onExportClicked()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the compared curves"), QStringLiteral("comparison.png"),
                                                      tr("Images (*.png *.svg *.pdf)"));
    if (path.isEmpty())
        return;
    const QString problem = exportPlot(path);
    if (!problem.isEmpty())
        info_->setText(problem);
}

} // namespace attnlab::ui
