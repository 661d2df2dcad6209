#include "ui/training/TrainingView.h"

#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/AttentionThumbnailGrid.h"
#include "ui/plots/TrainingCurvesPlot.h"

#include <QPlainTextEdit>
#include <QScrollArea>

#include <algorithm>

namespace attnlab::ui {

TrainingView::TrainingView(QWidget* parent)
    : QSplitter(Qt::Horizontal, parent), curves_(new TrainingCurvesPlot), heatmap_(new AttentionHeatmap),
      grid_(new AttentionThumbnailGrid), heatmapTimer_(new QTimer(this))
{
    heatmapTimer_->setSingleShot(true);
    connect(heatmapTimer_, &QTimer::timeout, this, &TrainingView::drawLiveAttention);
    setObjectName(QStringLiteral("plotSplitter"));
    addWidget(curves_);
    // The map over its layers x heads (hidden unless the model has several): thumbnails small enough that a
    // 3 x 8 grid fits beside the curves at a projector's 1280 x 720, scrolled where it does not.
    auto* attention = new QSplitter(Qt::Vertical, this);
    attention->setObjectName(QStringLiteral("attentionSplitter"));
    attention->addWidget(heatmap_);
    heatmap_->setMinimumPlotSize(QSize(260, 220)); // room for the grid under it at 720 pixels' height
    grid_->setObjectName(QStringLiteral("trainingAttentionGrid"));
    grid_->setThumbnailSide(32);
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("trainingAttentionGridScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(grid_);
    gridScroll_ = scroll;
    attention->addWidget(scroll);
    attention->setStretchFactor(0, 3);
    attention->setStretchFactor(1, 2);
    attention->setCollapsible(0, false);
    scroll->hide();
    // A language model's sample of the shown evaluation: what it wrote from its prompt, so writing is seen to emerge.
    sample_ = new QPlainTextEdit;
    sample_->setObjectName(QStringLiteral("trainingSample"));
    sample_->setReadOnly(true);
    sample_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    sample_->hide();
    attention->addWidget(sample_);
    addWidget(attention);
    connect(grid_, &AttentionThumbnailGrid::mapClicked, heatmap_, &AttentionHeatmap::showView);
    connect(heatmap_, &AttentionHeatmap::viewShown, grid_, [this](int view) {
        if (gridScroll_->isVisibleTo(this))
            grid_->setSelectedView(view);
    });
    // The curves and the map share the space 5 : 4 as the window grows.
    setStretchFactor(0, 5);
    setStretchFactor(1, 4);
    setSizes({600, 480});
}

void TrainingView::beginLive(int plannedSteps, int evalEvery, const QString& title, const QString& subtitle)
{
    liveRunId_ = 0;
    liveEnded_ = false;
    livePlannedSteps_ = plannedSteps;
    liveEvalEvery_ = evalEvery;
    liveMetrics_.clear();
    liveAttention_.reset();
    heatmapTimer_->stop();
    sinceHeatmap_.invalidate();
    liveTitle_ = title;
    liveSubtitle_ = subtitle;
    showLive();
}

void TrainingView::liveStarted(qint64 runId, const QString& title, const QString& subtitle)
{
    liveRunId_ = runId;
    liveTitle_ = title;
    if (!subtitle.isEmpty())
        liveSubtitle_ = subtitle;
    if (showingLive_) {
        shownRunId_ = runId;
        curves_->setTitle(liveTitle_, liveSubtitle_);
    }
}

void TrainingView::addLiveMetrics(const std::vector<MetricPoint>& points)
{
    liveMetrics_.insert(liveMetrics_.end(), points.begin(), points.end());
    if (showingLive_)
        curves_->addMetrics(points);
}

void TrainingView::setLiveAttention(const AttentionSnapshot& snapshot)
{
    liveAttention_ = snapshot;
    if (!showingLive_ || heatmapTimer_->isActive())
        return;
    if (!sinceHeatmap_.isValid() || sinceHeatmap_.elapsed() >= kLiveHeatmapMs)
        drawLiveAttention();
    else
        heatmapTimer_->start(static_cast<int>(kLiveHeatmapMs - sinceHeatmap_.elapsed()));
}

void TrainingView::drawLiveAttention()
{
    if (!showingLive_ || !liveAttention_)
        return;
    sinceHeatmap_.start();
    showAttention(*liveAttention_);
}

void TrainingView::liveFinished(const QString& subtitle, int steps)
{
    liveEnded_ = true;
    if (!showingLive_)
        return;
    shownSteps_ = steps; // what a replay of it says at its end
    shownEvalEvery_ = liveEvalEvery_;
    liveSubtitle_ = subtitle;
    curves_->setTitle(liveTitle_, liveSubtitle_);
    if (heatmapTimer_->isActive()) { // the last evaluation's map, now
        heatmapTimer_->stop();
        drawLiveAttention();
    }
    if (!liveAttention_)
        showNoAttention(steps, liveEvalEvery_);
}

void TrainingView::setLiveSubtitle(const QString& subtitle)
{
    liveSubtitle_ = subtitle;
    curves_->setTitle(liveTitle_, subtitle);
}

void TrainingView::showLive()
{
    // What arrived so far is in memory (nothing yet when the run has just started), and more is on its way.
    showingLive_ = true;
    shownRunId_ = liveRunId_;
    curves_->clear();
    curves_->setPlannedSteps(livePlannedSteps_);
    curves_->setTitle(liveTitle_, liveSubtitle_);
    curves_->addMetrics(liveMetrics_);
    if (liveAttention_)
        showAttention(*liveAttention_);
    else
        showAttentionPlaceholder(tr("Waiting for the first dev evaluation (every %1 steps)…").arg(liveEvalEvery_));
}

void TrainingView::showStored(qint64 runId, const QString& title, const QString& subtitle, int plannedSteps,
                              const std::vector<MetricPoint>& metrics, const std::optional<AttentionSnapshot>& snapshot,
                              int steps, int evalEvery)
{
    showingLive_ = false;
    heatmapTimer_->stop();
    shownRunId_ = runId;
    shownSteps_ = steps;
    shownEvalEvery_ = evalEvery;
    curves_->clear();
    curves_->setPlannedSteps(plannedSteps);
    curves_->setTitle(title, subtitle);
    curves_->setMetrics(metrics);
    if (snapshot)
        showAttention(*snapshot);
    else
        showNoAttention(steps, evalEvery);
}

void TrainingView::showReplayFrame(int step, const std::vector<MetricPoint>& metrics, const AttentionSnapshot* map)
{
    if ((showingLive_ && !liveEnded_) || shownRunId_ == 0)
        return;
    curves_->setMetrics(metrics); // the planned x range stays: the curves grow across it
    const int steps = shownSteps_, evalEvery = shownEvalEvery_;
    if (map)
        showAttention(*map);
    else if (step >= steps || (evalEvery > 0 && steps < evalEvery))
        showNoAttention(steps, evalEvery); // at its end: why the run has none at all
    else
        showAttentionPlaceholder(tr("Step %1: no dev evaluation yet, so no attention.").arg(step));
}

void TrainingView::showNothing()
{
    showingLive_ = false;
    shownRunId_ = 0;
    curves_->clear();
    curves_->setTitle(tr("No run selected"));
    showAttentionPlaceholder(tr("Select a run to show its attention."));
}

void TrainingView::showNoAttention(int steps, int evalEvery)
{
    // Snapshots come with every dev evaluation; a run that passed one without any has no attention.
    if (evalEvery > 0 && steps < evalEvery)
        showAttentionPlaceholder(tr("The run ended before its first dev evaluation, so there is no attention to show."));
    else
        showAttentionPlaceholder(tr("This model has no attention."));
}

void TrainingView::showAttention(const AttentionSnapshot& snapshot)
{
    sample_->setVisible(!snapshot.sample.empty());
    if (!snapshot.sample.empty())
        sample_->setPlainText(tr("Written at step %1 from its prompt (seeded, temperature 1):").arg(snapshot.step) + QLatin1Char('\n') +
                              QString::fromStdString(snapshot.sample));
    if (snapshot.maps.empty() && snapshot.crossMaps.empty() && snapshot.pooling.empty() && snapshot.inputAttention.empty()) {
        gridScroll_->hide();
        heatmap_->showPlaceholder(tr("This model has no attention; below, what it wrote at step %1.").arg(snapshot.step));
        return;
    }
    // The grid first: the map then says which view it drew (viewShown), and the grid outlines that one.
    const bool grid = snapshot.crossMaps.size() > 1;
    gridScroll_->setVisible(grid);
    if (grid) {
        grid_->setSnapshot(snapshot);
        // The whole grid in view (3 layers x 8 heads fit under the map at 720 pixels' height), a larger one scrolled.
        gridScroll_->setMinimumHeight(std::min(grid_->sizeHint().height() + 4, kGridHeightMax));
    }
    heatmap_->setSnapshot(snapshot);
    if (grid)
        grid_->setSelectedView(heatmap_->currentMapIndex());
}

void TrainingView::showAttentionPlaceholder(const QString& text)
{
    sample_->hide();
    gridScroll_->hide();
    grid_->clear(QString());
    heatmap_->showPlaceholder(text);
}

} // namespace attnlab::ui
