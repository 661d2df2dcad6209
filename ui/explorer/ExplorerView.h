#pragma once
#include "core/results/AttentionSnapshot.h"
#include "core/results/ModelExplanation.h"
#include "core/results/RunRecord.h"

#include "ui/explorer/ExplanationJobs.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTabWidget;
class QTimer;

namespace attnlab {
class ModelExplainer;
class RunStore;
}

namespace attnlab::ui {

class AttentionHeatmap;
class AttentionStepsView;
class AttentionThumbnailGrid;
class AttributionPanel;
class FaithfulnessView;
class KnownAnswerLabel;
class SentenceDeletionPlot;
class ClassProbabilityChart;
class DatasetBrowser;
class PositionTechniqueView;
class GateStripView;
class TrainingTimeline;

// The attention explorer, for one stored run: type a sentence and see the tokens the model saw, its
// class probabilities and every attention map of that forward pass (a layers x heads grid, the rollout,
// the pooling weights; one of them large), recomputed as you type on a worker thread from the run's
// checkpoint; or move along the training timeline through the probe input's stored snapshots, with the
// dev curve and a cursor at the same step. Runs without usable weights (none kept, file changed, a time
// series) show their snapshots and say why typing is off. Below the maps, the dataset browser lists the
// run's dev and test examples with their predictions (double-clicking one explains it), and the position
// technique made visible. Under the large map, the typed sentence's tokens shaded by the chosen explanation
// methods (AttributionPanel); in the lower tabs, that sentence's deletion curves and the run's faithfulness.
class ExplorerView : public QWidget {
    Q_OBJECT
public:
    explicit ExplorerView(QWidget* parent = nullptr);
    ~ExplorerView() override;

    void setStore(RunStore* store); // the GUI thread's connection; nullptr detaches
    void setRun(qint64 runId);      // reads the run's checkpoints, snapshot steps and dev curve
    void clear(const QString& why);
    // The live run stored a new snapshot: extend the timeline (and follow it when at its end). While the
    // view is hidden this only marks it stale; it reads the store when shown (no store reads and redraws
    // per evaluation behind another tab, while the run's threads need the cores).
    void snapshotsChanged(qint64 runId);

    qint64 runId() const { return runId_; }
    bool canExplain() const { return explainer_ != nullptr; }
    bool isBusy() const; // loading the checkpoint or computing an explanation
    const std::optional<ModelExplanation>& explanation() const { return explanation_; }
    // What the maps show now: the typed input's forward pass, or a stored snapshot (timeline).
    const AttentionSnapshot& shownSnapshot() const { return shown_; }
    bool showingTimeline() const { return timelineShown_; }
    std::vector<int> timelineSteps() const;
    void showStep(int step); // the stored snapshot nearest to step (of the chosen probe), as the slider does
    AttributionPanel* attributionPanel() const { return attributions_; }
    SentenceDeletionPlot* sentenceDeletion() const { return deletion_; }
    FaithfulnessView* faithfulness() const { return faithfulness_; }
    AttentionStepsView* attentionSteps() const { return steps_; }
    // The Faithfulness tab in front, measured at once where the run has no stored report (the lesson
    // "Is attention an explanation?" ends here).
    void openFaithfulness();
    // The maps beside the lower panels on a wide, short view, above them on a tall one.
    Qt::Orientation panelsOrientation() const;
    // The height the view has on screen (its scroll area's viewport: the view itself may be taller and scroll).
    // Short (a projector's 1280x720 with the docks open leaves about 450 px), the explanation rows become a
    // lower tab beside the maps and the large map may shrink, so nothing needs scrolling; tall, they sit under
    // the map.
    void fitHeight(int available);
    bool explanationsInTabs() const { return explanationsInTabs_; }
    int heightForWidth(int width) const override;
    // Parts by object name: explorerInput, explorerNotes, explorerTokens, explorerWeights, explorerTimeline,
    // explorerPlay, explorerDevPlot (TrainingTimeline), classProbabilityChart, attentionThumbnailGrid, explorerHeatmap.

signals:
    void statusMessage(const QString& text);
    void explained(); // an explanation is on screen (tests wait for it)
    void attributed(); // then its explanation methods' rows and deletion curves

protected:
    void hideEvent(QHideEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void loadExplainer(const CheckpointRef& checkpoint);
    void requestExplanation();
    // On the GUI thread, once the chosen weights are open.
    void modelLoaded(std::shared_ptr<const ModelExplainer> explainer, const std::vector<PositionView>& positions);
    void showExplanation(const ModelExplanation& e);
    void showAttributions(const ExplanationJobs::Attributed& result);
    void showSnapshot(const AttentionSnapshot& snapshot, bool fromTimeline);
    void exportMap();
    void setTypingEnabled(bool enabled, const QString& why);
    void showPrediction(const std::vector<std::string>& classes, const std::vector<double>& probabilities);

    RunStore* store_ = nullptr;
    qint64 runId_ = 0;
    RunRecord run_;
    std::vector<CheckpointRef> checkpoints_;
    std::shared_ptr<const ModelExplainer> explainer_;
    std::optional<ModelExplanation> explanation_;
    AttentionSnapshot shown_;
    bool timelineShown_ = false;
    bool snapshotsStale_ = false; // snapshotsChanged arrived while hidden

    QLabel* header_;
    QComboBox* weights_;
    QLineEdit* input_;
    QLabel* notes_;
    QLabel* tokens_;
    QLabel* source_;
    KnownAnswerLabel* knownAnswer_; // synthetic-lag: attention on the true driver and lag
    QLabel* predictionLabel_;
    ClassProbabilityChart* probabilities_;
    AttentionThumbnailGrid* grid_;
    AttentionHeatmap* heatmap_;
    QTabWidget* lower_;
    QSplitter* panels_;      // the training timeline, the dataset browser
    DatasetBrowser* browser_;
    PositionTechniqueView* positions_;
    GateStripView* gates_;
    TrainingTimeline* timeline_;
    QTimer* debounce_;
    AttributionPanel* attributions_;
    QSplitter* mapSplitter_; // the large map above the explanation rows
    bool explanationsInTabs_ = false; // fitHeight: a short view has them as the last lower tab
    SentenceDeletionPlot* deletion_;
    FaithfulnessView* faithfulness_;
    AttentionStepsView* steps_;
    bool openFaithfulnessPending_ = false; // openFaithfulness() before the weights opened
    ExplanationJobs* jobs_; // opening the weights, explaining the typed text: the latest request wins
};

} // namespace attnlab::ui
