#pragma once
#include "ui/training/CoreMetaTypes.h"

#include <QElapsedTimer>
#include <QSplitter>
#include <QString>
#include <QTimer>

#include <optional>
#include <vector>

class QPlainTextEdit;

namespace attnlab::ui {

class AttentionHeatmap;
class AttentionThumbnailGrid;
class TrainingCurvesPlot;

// The Training tab: the curves and the probe sentence's attention, of the live run or of a stored one.
// The live run is kept in memory (what it has sent so far), so it can be shown again after looking at
// another run; a stored run is read by the window and handed over whole. A translation model with several
// layers or heads (the Transformer) also shows them all under the map, small: its cross-attention as a
// layer x head grid, the encoder's and the decoder's self-attention one click away; a click on one shows
// it large. Parts by object name: trainingCurvesPlot, attentionHeatmap, trainingAttentionGrid
// (the splitters are plotSplitter and attentionSplitter).
class TrainingView : public QSplitter {
    Q_OBJECT
public:
    explicit TrainingView(QWidget* parent = nullptr);

    bool showingLive() const { return showingLive_; }
    qint64 liveRunId() const { return liveRunId_; }
    qint64 shownRunId() const { return shownRunId_; } // the run in the plots (0: a live run not yet stored)
    TrainingCurvesPlot* curves() const { return curves_; }
    AttentionHeatmap* heatmap() const { return heatmap_; }
    AttentionThumbnailGrid* grid() const { return grid_; }

    // A live run: begun (nothing stored yet), started (stored as runId), its points and snapshots, its end.
    void beginLive(int plannedSteps, int evalEvery, const QString& title, const QString& subtitle);
    void liveStarted(qint64 runId, const QString& title, const QString& subtitle); // subtitle empty: unchanged
    void addLiveMetrics(const std::vector<MetricPoint>& points);
    // The latest evaluation's probe sentence. Drawn at most every kLiveHeatmapMs while the run lasts (a fast
    // model evaluates many times a second; each redraw is GUI-thread time taken from LibTorch's threads on
    // a small machine: attnlab-bench-window); the latest is drawn at the run's end.
    void setLiveAttention(const AttentionSnapshot& snapshot);
    void liveFinished(const QString& subtitle, int steps);
    void setLiveSubtitle(const QString& subtitle); // e.g. the repeats' mean ± std
    void showLive();

    // A stored run, as the window read it: its curves and latest snapshot (none: a placeholder that says why).
    void showStored(qint64 runId, const QString& title, const QString& subtitle, int plannedSteps,
                    const std::vector<MetricPoint>& metrics, const std::optional<AttentionSnapshot>& snapshot,
                    int steps, int evalEvery);
    void showNothing(); // no run selected (another store, the shown run deleted)
    // One frame of a stored run's replay (RunReplay): its points up to a step and its map at or before it
    // (nullptr: no evaluation yet). Ignored while the live run is shown.
    void showReplayFrame(int step, const std::vector<MetricPoint>& metrics, const AttentionSnapshot* map);

    static constexpr qint64 kLiveHeatmapMs = 500;
    static constexpr int kGridHeightMax = 200; // pixels the grid takes from the map at most; more scrolls

private:
    void showNoAttention(int steps, int evalEvery);
    void drawLiveAttention();
    void showAttention(const AttentionSnapshot& snapshot); // the map, and the grid where there are layers x heads
    void showAttentionPlaceholder(const QString& text);

    TrainingCurvesPlot* curves_;
    AttentionHeatmap* heatmap_;
    AttentionThumbnailGrid* grid_;
    QWidget* gridScroll_;
    QPlainTextEdit* sample_;
    qint64 liveRunId_ = 0;
    int livePlannedSteps_ = 0;
    int liveEvalEvery_ = 0;
    QString liveTitle_;
    QString liveSubtitle_;
    std::vector<MetricPoint> liveMetrics_;
    std::optional<AttentionSnapshot> liveAttention_;
    bool showingLive_ = false;
    bool liveEnded_ = false; // the live run has finished: a replay may draw over it
    QElapsedTimer sinceHeatmap_; // the live map's last redraw
    QTimer* heatmapTimer_;       // a redraw that waits for its turn
    qint64 shownRunId_ = 0;
    int shownSteps_ = 0, shownEvalEvery_ = 0; // the stored run's, for its placeholder's reason
};

} // namespace attnlab::ui
