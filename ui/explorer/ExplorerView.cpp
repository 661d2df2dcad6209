#include "ui/explorer/ExplorerView.h"

#include "core/data/Tokenizer.h"
#include "core/results/AttentionCsv.h"

#include "core/analysis/AttentionRollout.h"
#include "core/config/Registry.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "ui/StdStrings.h"
#include "ui/analysis/FigureExport.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/AttributionPanel.h"
#include "ui/explorer/ClassProbabilityChart.h"
#include "ui/explorer/DatasetBrowser.h"
#include "ui/explorer/ExplanationJobs.h"
#include "ui/explorer/FaithfulnessView.h"
#include "ui/explorer/GateStripView.h"
#include "ui/explorer/KnownAnswerLabel.h"
#include "ui/explorer/PositionTechniqueView.h"
#include "ui/explorer/SentenceDeletionPlot.h"
#include "ui/explorer/TrainingTimeline.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/AttentionThumbnailGrid.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace attnlab::ui {
namespace {

// The snapshot the maps are drawn from, with the rollout added as one more map (layer -1) when the model
// has more than one layer: the thumbnails and the large heatmap then share one view order.
AttentionSnapshot withRollout(AttentionSnapshot snapshot)
{
    int layers = 0;
    for (const auto& m : snapshot.maps)
        layers = std::max(layers, m.layer + 1);
    if (layers > 1)
        if (auto rollout = AttentionRollout::of(snapshot.maps))
            snapshot.maps.push_back(std::move(*rollout));
    return snapshot;
}

} // namespace

ExplorerView::ExplorerView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("explorerView"));
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("explorerHeader"));
    header_->setWordWrap(true);
    QFont bold = header_->font();
    bold.setBold(true);
    header_->setFont(bold);
    weights_ = new QComboBox(this);
    weights_->setObjectName(QStringLiteral("explorerWeights"));
    weights_->setToolTip(tr("Which saved weights answer: the best dev step's (what the run reports) or the last step's"));
    input_ = new QLineEdit(this);
    input_->setObjectName(QStringLiteral("explorerInput"));
    input_->setPlaceholderText(tr("Type a sentence, e.g. not bad at all"));
    input_->setClearButtonEnabled(true);
    notes_ = new QLabel(this);
    notes_->setObjectName(QStringLiteral("explorerNotes"));
    notes_->setWordWrap(true);
    tokens_ = new QLabel(this);
    tokens_->setObjectName(QStringLiteral("explorerTokens"));
    tokens_->setWordWrap(true);
    tokens_->setTextFormat(Qt::RichText);
    knownAnswer_ = new KnownAnswerLabel(this);
    source_ = new QLabel(this);
    source_->setObjectName(QStringLiteral("explorerSource"));
    source_->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto* inputRow = new QHBoxLayout;
    inputRow->addWidget(new QLabel(tr("Input:"), this));
    inputRow->addWidget(input_, 1);
    inputRow->addWidget(new QLabel(tr("Weights:"), this));
    inputRow->addWidget(weights_);

    probabilities_ = new ClassProbabilityChart(this);
    grid_ = new AttentionThumbnailGrid(this);
    auto* gridScroll = new QScrollArea(this);
    gridScroll->setWidget(grid_);
    gridScroll->setWidgetResizable(true);
    gridScroll->setFrameShape(QFrame::NoFrame);
    heatmap_ = new AttentionHeatmap(this);
    heatmap_->setObjectName(QStringLiteral("explorerHeatmap"));
    heatmap_->setTextShown(true); // the typed sentence shaded by a chosen token's weights, under the map
    auto* exportMap = new QPushButton(tr("Export map…"), this);
    exportMap->setObjectName(QStringLiteral("explorerExport"));
    exportMap->setToolTip(tr("Save the large map as PNG, SVG or PDF, and its numbers as CSV"));
    connect(exportMap, &QPushButton::clicked, this, &ExplorerView::exportMap);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    predictionLabel_ = new QLabel(tr("<b>Prediction</b>"), left);
    leftLayout->addWidget(predictionLabel_);
    leftLayout->addWidget(probabilities_);
    leftLayout->addWidget(new QLabel(tr("<b>All maps</b> — click one to enlarge"), left));
    leftLayout->addWidget(gridScroll, 2);
    auto* mapPart = new QWidget(this);
    auto* mapLayout = new QVBoxLayout(mapPart);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->addWidget(heatmap_, 1);
    mapLayout->addWidget(exportMap, 0, Qt::AlignRight);
    // Under the map: what each explanation method credits, token by token.
    attributions_ = new AttributionPanel(this);
    auto* right = mapSplitter_ = new QSplitter(Qt::Vertical, this);
    right->setObjectName(QStringLiteral("explorerMapSplitter"));
    right->addWidget(mapPart);
    right->addWidget(attributions_);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    right->setChildrenCollapsible(false);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("explorerSplitter"));
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    // The training timeline: a slider over the stored snapshots' steps, play, the dev curve with a cursor.
    timeline_ = new TrainingTimeline(this);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header_);
    layout->addLayout(inputRow);
    layout->addWidget(tokens_);
    layout->addWidget(notes_);
    layout->addWidget(source_);
    layout->addWidget(knownAnswer_);
    browser_ = new DatasetBrowser(this);
    lower_ = new QTabWidget(this);
    lower_->setObjectName(QStringLiteral("explorerLowerTabs"));
    lower_->setDocumentMode(true);
    lower_->addTab(timeline_, tr("Training &timeline"));
    lower_->addTab(browser_, tr("Dataset &examples"));
    positions_ = new PositionTechniqueView(this);
    lower_->addTab(positions_, tr("&Position technique"));
    deletion_ = new SentenceDeletionPlot(this);
    lower_->addTab(deletion_, tr("&Deletion curve"));
    faithfulness_ = new FaithfulnessView(this);
    lower_->addTab(faithfulness_, tr("&Faithfulness"));
    steps_ = new AttentionStepsView(this);
    auto* stepsScroll = new QScrollArea(this); // the lower tabs can be shorter than the table and its vectors need
    stepsScroll->setObjectName(QStringLiteral("explorerStepsScroll"));
    stepsScroll->setWidget(steps_);
    stepsScroll->setWidgetResizable(true);
    stepsScroll->setFrameShape(QFrame::NoFrame);
    lower_->addTab(stepsScroll, tr("&Step by step"));
    gates_ = new GateStripView(this);
    lower_->addTab(gates_, tr("&Gates"));
    connect(gates_, &GateStripView::statusMessage, this, &ExplorerView::statusMessage);
    connect(steps_, &AttentionStepsView::statusMessage, this, &ExplorerView::statusMessage);
    connect(deletion_, &SentenceDeletionPlot::statusMessage, this, &ExplorerView::statusMessage);
    connect(faithfulness_, &FaithfulnessView::statusMessage, this, &ExplorerView::statusMessage);
    connect(attributions_, &AttributionPanel::statusMessage, this, &ExplorerView::statusMessage);
    connect(attributions_, &AttributionPanel::methodsChanged, this, &ExplorerView::requestExplanation);
    // The maps and the lower panels (timeline, examples, positions): side by side on a wide, short view, as
    // the tab is at the window's default size and at 1280x720 with the Runs dock below it (stacked, the lower
    // panels got a few pixels there); stacked when the view is tall.
    panels_ = new QSplitter(Qt::Horizontal, this);
    panels_->setObjectName(QStringLiteral("explorerPanelsSplitter"));
    panels_->addWidget(split);
    panels_->addWidget(lower_);
    panels_->setStretchFactor(0, 3);
    panels_->setStretchFactor(1, 2);
    lower_->setMinimumSize(260, 180);
    layout->addWidget(panels_, 1);
    connect(browser_, &DatasetBrowser::exampleChosen, this, [this](const QString& text) {
        input_->setText(text);
        requestExplanation(); // at once: it was chosen, not typed
    });

    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(150); // recompute once typing pauses, not at every key
    jobs_ = new ExplanationJobs(this);
    connect(jobs_, &ExplanationJobs::loaded, this, &ExplorerView::modelLoaded);
    connect(jobs_, &ExplanationJobs::explained, this, &ExplorerView::showExplanation);
    connect(jobs_, &ExplanationJobs::attributed, this, &ExplorerView::showAttributions);

    connect(input_, &QLineEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
    connect(debounce_, &QTimer::timeout, this, &ExplorerView::requestExplanation);
    connect(input_, &QLineEdit::returnPressed, this, &ExplorerView::requestExplanation);
    connect(timeline_, &TrainingTimeline::stepRequested, this, &ExplorerView::showStep);
    connect(grid_, &AttentionThumbnailGrid::mapClicked, heatmap_, &AttentionHeatmap::showView);
    connect(grid_, &AttentionThumbnailGrid::mapClicked, this, [this](int view) {
        // The step-by-step tab follows the enlarged map's layer and head (not the rollout, which no head computed).
        if (view >= 0 && static_cast<std::size_t>(view) < shown_.maps.size() && shown_.maps[static_cast<std::size_t>(view)].layer >= 0)
            steps_->showHead(shown_.maps[static_cast<std::size_t>(view)].layer, shown_.maps[static_cast<std::size_t>(view)].head);
    });
    connect(weights_, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && index < static_cast<int>(checkpoints_.size()))
            loadExplainer(checkpoints_[static_cast<std::size_t>(index)]);
    });
    connect(jobs_, &ExplanationJobs::explainFailed, this, [this](const QString& message) {
        notes_->setText(tr("Could not explain this text: %1").arg(message));
        notes_->setVisible(true);
        emit statusMessage(tr("Could not explain this text: %1").arg(message));
    });
    connect(jobs_, &ExplanationJobs::loadFailed, this,
            [this](const QString& message) { setTypingEnabled(false, tr("Typed input is off: %1").arg(message)); });
    clear(tr("Select a run in the run list to explore its model."));
}

ExplorerView::~ExplorerView() = default; // jobs_, a child, waits for its work as it goes

void ExplorerView::setStore(RunStore* store)
{
    store_ = store;
    clear(tr("Select a run in the run list to explore its model."));
}

bool ExplorerView::isBusy() const
{
    // Until the finished signal is handled, not only while the thread runs: the result is not on screen before.
    return jobs_->isBusy() || debounce_->isActive();
}

void ExplorerView::clear(const QString& why)
{
    jobs_->discard(); // a model still opening belongs to the run shown before
    runId_ = 0;
    explainer_.reset();
    explanation_.reset();
    checkpoints_.clear();
    shown_ = {};
    timelineShown_ = false;
    header_->setText(why);
    weights_->clear();
    weights_->setEnabled(false);
    weights_->setToolTip(tr("Which saved weights answer: the best dev step's (what the run reports) or the last step's"));
    setTypingEnabled(false, QString());
    tokens_->clear();
    notes_->clear();
    notes_->setVisible(false);
    source_->clear();
    knownAnswer_->showFor({});
    showPrediction({}, {});
    browser_->setExplainer(nullptr);
    attributions_->showPlaceholder(tr("Type a sentence to see what each method credits."));
    deletion_->showPlaceholder(tr("Type a sentence: its deletion curve for each chosen method appears here."));
    steps_->clear(tr("Open a run with self-attention and type a sentence: one head's attention is computed here step by step."));
    faithfulness_->setRun(store_, 0, nullptr, tr("Select a text run with saved weights to measure its explanations."));
    positions_->setViews({}, tr("The position technique is read from the run's saved weights."));
    grid_->clear(QString());
    heatmap_->showPlaceholder(why);
    timeline_->clear();
}

void ExplorerView::showPrediction(const std::vector<std::string>& classes, const std::vector<double>& probabilities)
{
    // A time series (or a snapshot stored before predictions were) has no class probabilities: no chart.
    const bool any = !probabilities.empty();
    predictionLabel_->setVisible(any);
    probabilities_->setVisible(any);
    if (!any) {
        probabilities_->clear();
        return;
    }
    probabilities_->setMinimumHeight(40 + 24 * static_cast<int>(classes.size()));
    probabilities_->setProbabilities(classes, probabilities,
                                     static_cast<int>(std::max_element(probabilities.begin(), probabilities.end()) -
                                                      probabilities.begin()));
}

void ExplorerView::setTypingEnabled(bool enabled, const QString& why)
{
    input_->setEnabled(enabled);
    if (!enabled && !why.isEmpty()) {
        notes_->setText(why);
        notes_->setVisible(true);
    }
}

void ExplorerView::setRun(qint64 runId)
{
    if (!store_)
        return;
    if (runId == runId_ && runId != 0)
        return; // already shown: keep what the user typed and where the slider is
    snapshotsStale_ = false; // what follows reads the new run's steps
    const auto record = store_->run(runId);
    if (!record) {
        clear(tr("Run #%1 is not in the store.").arg(runId));
        return;
    }
    clear(QString());
    runId_ = runId;
    run_ = *record;
    header_->setText(tr("Run #%1 · %2 on %3")
                         .arg(runId)
                         .arg(qs(Registry::modelLabel(run_.model, run_.position)),
                              qs(Registry::nameOf(Registry::datasets(), run_.dataset))));

    // The timeline: steps only (one snapshot is read at a time), the probes, and the dev curve.
    std::vector<TrainingTimeline::Probe> probes;
    for (const auto& p : store_->attentionProbes(runId)) {
        const QString text = qs(Tokenizer::textOf(p.tokens));
        probes.push_back({p.probeLabel.empty() ? text : QStringLiteral("%1: %2").arg(qs(p.probeLabel), text), text});
    }
    std::vector<std::pair<int, double>> dev;
    for (const auto& [step, value] : store_->metricSeries(runId, "dev", run_.regression ? "rmse" : "accuracy"))
        dev.emplace_back(step, run_.regression ? value : 100.0 * value); // accuracy in percent, as every other view words it
    const auto steps = store_->attentionSteps(runId);
    timeline_->setRun(steps, probes, dev, run_.regression ? tr("dev RMSE") : tr("dev accuracy (%)"));
    if (!steps.empty())
        showStep(steps.back());
    else
        heatmap_->showPlaceholder(tr("This run stored no attention snapshots."));

    // Typed input needs the run's weights: a text model's checkpoint, opened on a worker thread.
    checkpoints_ = store_->checkpoints(runId);
    qint64 bytes = 0;
    for (const auto& c : checkpoints_) {
        weights_->addItem(c.step == run_.bestStep ? tr("best dev (step %1)").arg(c.step) : tr("final (step %1)").arg(c.step));
        bytes += QFileInfo(qs(c.path)).size();
    }
    if (!checkpoints_.empty()) { // what keeping weights costs, shown where the weights are chosen
        const QString megabytes = QString::number(static_cast<double>(bytes) / 1e6, 'f', 1);
        weights_->setToolTip(checkpoints_.size() == 1
                                 ? tr("1 saved weight file, %1 MB on disk").arg(megabytes)
                                 : tr("%1 saved weight files, %2 MB on disk").arg(checkpoints_.size()).arg(megabytes));
    }
    // Until the weights open (or if they cannot), a stored report can still be read.
    faithfulness_->setRun(store_, runId, nullptr,
                          run_.regression ? tr("A time-series model: the explanation methods score the tokens of text.")
                                          : tr("Measuring needs the run's saved weights."));
    if (run_.regression) {
        setTypingEnabled(false, tr("A time-series model: typed text does not apply. Its attention over each window "
                                   "is in the stored snapshots (the timeline below)."));
        return;
    }
    const auto chosen = ModelExplainer::choose(checkpoints_, run_.bestStep);
    if (!chosen) {
        setTypingEnabled(false, tr("Run #%1 kept no weights (trained with checkpoints off, before they were kept, or "
                                   "it did not complete), so typed sentences cannot be run through it; its stored "
                                   "snapshots are on the timeline below.").arg(runId));
        return;
    }
    weights_->setCurrentIndex(static_cast<int>(std::find_if(checkpoints_.begin(), checkpoints_.end(),
                                                            [&](const CheckpointRef& c) { return c.path == chosen->path; }) -
                                               checkpoints_.begin()));
    weights_->setEnabled(checkpoints_.size() > 1);
    loadExplainer(*chosen);
}

void ExplorerView::loadExplainer(const CheckpointRef& checkpoint)
{
    explainer_.reset();
    setTypingEnabled(false, tr("Loading the model (checking its sha256)…"));
    jobs_->load(checkpoint); // hashing and reading the file take a while for large models: never on the GUI thread
}

void ExplorerView::modelLoaded(std::shared_ptr<const ModelExplainer> explainer, const std::vector<PositionView>& positions)
{
    explainer_ = std::move(explainer);
    browser_->setExplainer(explainer_, run_.environmentJson);
    faithfulness_->setRun(store_, runId_, explainer_, QString());
    if (openFaithfulnessPending_) {
        openFaithfulnessPending_ = false;
        openFaithfulness();
    }
    positions_->setViews(positions, tr("This model has no position technique to show (%1).")
                                        .arg(qs(explainer_->config().model.position)));
    setTypingEnabled(true, QString());
    if (input_->text().trimmed().isEmpty() && !shown_.tokens.empty() && !shown_.series)
        input_->setText(qs(Tokenizer::textOf(shown_.tokens))); // start from the probe sentence
    else
        requestExplanation();
}

void ExplorerView::requestExplanation()
{
    debounce_->stop();
    if (!explainer_)
        return;
    // Latest text wins: typed on while one runs, the newest text replaces any waiting. The maps and the prediction
    // come first; the explanation methods and their deletion curves follow, so typing is answered at once.
    jobs_->explain(explainer_, input_->text(), attributions_->methods());
}

void ExplorerView::showExplanation(const ModelExplanation& e)
{
    explanation_ = e;
    QStringList notes;
    for (const auto& n : e.notes())
        notes << qs(n);
    notes_->setText(notes.join(QLatin1Char('\n')));
    notes_->setVisible(!notes.isEmpty());
    source_->setText(tr("Computed now from the %1 weights of step %2")
                         .arg(e.weights == "best" ? tr("best dev") : qs(e.weights))
                         .arg(e.step));
    QStringList words;
    for (std::size_t i = 0; i < e.tokens.size(); ++i)
        words << (e.unknown[i] ? QStringLiteral("<i style=\"color:#b35806\">%1?</i>").arg(qs(e.tokens[i]).toHtmlEscaped())
                               : qs(e.tokens[i]).toHtmlEscaped());
    tokens_->setText(words.isEmpty() ? QString() : tr("Tokens: %1").arg(words.join(QLatin1Char(' '))));
    timeline_->showTyped(e.step); // the cursor and the step label follow the weights that answered
    if (e.tokens.empty()) {
        showPrediction({}, {});
        grid_->clear(tr("Type a sentence to see the model's attention on it."));
        heatmap_->showPlaceholder(tr("Type a sentence to see the model's attention on it."));
        shown_ = {};
        attributions_->showPlaceholder(tr("Type a sentence to see what each method credits."));
        deletion_->showPlaceholder(tr("Type a sentence: its deletion curve for each chosen method appears here."));
        steps_->clear(tr("Type a sentence: one head's attention on it is computed here step by step."));
        gates_->clear(tr("Type a sentence to see the gates of a recurrent model on it."));
    } else {
        gates_->setGates(e.gates, e.tokens, QStringLiteral("gates-run%1.png").arg(runId_));
        showPrediction(e.classNames, e.probabilities);
        showSnapshot(e.attention, false);
        if (attributions_->methods().empty())
            attributions_->showPlaceholder(tr("Choose explanation methods to see what each credits."));
        else
            attributions_->showPlaceholder(tr("Computing the explanation methods…"));
        int layers = 0, heads = 0;
        for (const auto& m : e.attention.maps) {
            layers = std::max(layers, m.layer + 1);
            heads = std::max(heads, m.head + 1);
        }
        if (layers == 0 || !explainer_)
            steps_->clear(tr("This model has no self-attention layer: there is no head to compute step by step."));
        else
            steps_->setSubject([explainer = explainer_, text = e.text](int layer, int head, int query) {
                return explainer->stepByStep(text, layer, head, query);
            }, layers, heads, 0);
    }
    emit explained();
}

void ExplorerView::showAttributions(const ExplanationJobs::Attributed& result)
{
    if (!explanation_ || explanation_->text != result.text)
        return; // another sentence is on screen
    const ModelExplanation& e = *explanation_;
    if (!result.error.isEmpty())
        attributions_->showPlaceholder(tr("The explanation methods failed: %1").arg(result.error));
    else
        attributions_->setAttributions(result.attributions, e.classNames);
    // Every row in view: the map gives up what the rows need (it keeps its own minimum).
    const int needed = attributions_->minimumSizeHint().height();
    if (const auto sizes = mapSplitter_->sizes(); sizes.size() == 2 && sizes[1] < needed)
        mapSplitter_->setSizes({sizes[0] + sizes[1] - needed, needed});
    const auto predicted = static_cast<std::size_t>(e.predicted);
    deletion_->setCurves(result.curves, e.tokens, predicted < e.classNames.size() ? qs(e.classNames[predicted]) : QString());
    emit attributed();
}

void ExplorerView::showSnapshot(const AttentionSnapshot& snapshot, bool fromTimeline)
{
    timelineShown_ = fromTimeline;
    shown_ = withRollout(snapshot);
    knownAnswer_->showFor(snapshot); // synthetic series: does the attention find the driver and lag?
    const int view = std::max(0, heatmap_->currentMapIndex());
    grid_->setSnapshot(shown_);
    heatmap_->setSnapshot(shown_);
    grid_->setSelectedView(heatmap_->currentMapIndex() >= 0 ? heatmap_->currentMapIndex() : view);
}

void ExplorerView::showStep(int step)
{
    if (!store_ || runId_ == 0)
        return;
    const auto snapshot = store_->attentionNearest(runId_, step, timeline_->probe());
    if (!snapshot)
        return;
    timeline_->showStored(snapshot->step);
    attributions_->showPlaceholder(tr("Explanations need a typed sentence."));
    source_->setText(tr("Stored at step %1 of training: %2, as the model saw it then")
                         .arg(snapshot->step)
                         .arg(snapshot->probeLabel.empty() ? tr("the run's probe input") : qs(snapshot->probeLabel)));
    tokens_->setText(snapshot->series ? QString() : tr("Tokens: %1").arg(joinedWords(snapshot->tokens).toHtmlEscaped()));
    showPrediction(snapshot->classes, std::vector<double>(snapshot->probabilities.begin(), snapshot->probabilities.end()));
    showSnapshot(*snapshot, true);
}

void ExplorerView::openFaithfulness()
{
    lower_->setCurrentWidget(faithfulness_);
    if (!explainer_) { // measured once the weights are open
        openFaithfulnessPending_ = runId_ > 0 && !run_.regression;
        return;
    }
    if (!faithfulness_->report() && !faithfulness_->isMeasuring())
        faithfulness_->measure();
}

std::vector<int> ExplorerView::timelineSteps() const { return timeline_->steps(); }

void ExplorerView::snapshotsChanged(qint64 runId)
{
    if (runId != runId_ || !store_)
        return;
    if (!isVisible()) {
        snapshotsStale_ = true;
        return;
    }
    snapshotsStale_ = false;
    const bool atEnd = timeline_->atEnd();
    timeline_->setSteps(store_->attentionSteps(runId));
    if (atEnd && !timeline_->steps().empty() && (timelineShown_ || !explanation_))
        showStep(timeline_->steps().back());
}

void ExplorerView::exportMap()
{
    if (shown_.empty()) {
        emit statusMessage(tr("Nothing to export: no map is shown."));
        return;
    }
    auto* plot = heatmap_->findChild<QCustomPlot*>(QStringLiteral("attentionPlot"));
    const AttentionSnapshot shown = shown_;
    // The numbers beside the picture: every map of the input as long-format CSV.
    const QString message = FigureExport::run(this, plot, QStringLiteral("attention-run%1.png").arg(runId_),
                                              [shown] { return QString::fromStdString(AttentionCsv::of(shown)); });
    if (!message.isEmpty())
        emit statusMessage(message);
}

void ExplorerView::hideEvent(QHideEvent* event)
{
    timeline_->stop(); // no animation behind another tab
    QWidget::hideEvent(event);
}

Qt::Orientation ExplorerView::panelsOrientation() const
{
    return panels_->orientation();
}

void ExplorerView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Stacked, the maps (a 300 px plot at least) and the lower panels (180 px) need about 720 px with the
    // input rows above them: less than that, or a view much wider than tall, and they go side by side.
    const Qt::Orientation wanted = height() < 720 || width() >= 2 * height() ? Qt::Horizontal : Qt::Vertical;
    if (panels_->orientation() != wanted)
        panels_->setOrientation(wanted);
}

int ExplorerView::heightForWidth(int width) const
{
    // In its scroll area the view is as tall as the viewport, down to what its rows need at this width: with
    // QWidget's preferred height for the word-wrapped labels' width it scrolled where everything fitted.
    return layout() ? layout()->minimumHeightForWidth(width) : -1;
}

void ExplorerView::fitHeight(int available)
{
    // Under the map the rows need about 540 px with the input rows and the map's 300 px; below that they
    // move to the lower tabs (beside the maps on a short view) and the map's floor drops to 220 px.
    const bool inTabs = available < 540;
    if (inTabs == explanationsInTabs_)
        return;
    explanationsInTabs_ = inTabs;
    if (inTabs) {
        lower_->addTab(attributions_, tr("E&xplanations"));
        lower_->setCurrentWidget(attributions_); // what the tab's rows moved from: in front
        heatmap_->setMinimumPlotSize(QSize(260, 220));
    } else {
        lower_->removeTab(lower_->indexOf(attributions_));
        mapSplitter_->addWidget(attributions_);
        attributions_->show();
        heatmap_->setMinimumPlotSize(QSize(320, 300));
    }
}

void ExplorerView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (snapshotsStale_)
        snapshotsChanged(runId_);
}

} // namespace attnlab::ui
