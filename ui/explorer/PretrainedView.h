#pragma once
#include "core/results/AttentionSnapshot.h"
#include "core/results/ModelExplanation.h"

#include "ui/LatestRequestRunner.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;

namespace attnlab {
class PretrainedEncoder;
}

namespace attnlab::ui {

class AttentionHeatmap;
class AttentionStepsView;
class AttentionThumbnailGrid;
class PositionTechniqueView;

// A pretrained transformer's heads on a typed sentence (BertViz's model view without Python): the
// installed all-MiniLM-L6-v2's 6 x 12 maps as thumbnails (scrolling; a click shows one large), the rollout, and
// switches to merge word pieces into words and to hide [CLS]/[SEP] (core/analysis/TokenGrouping: attention to
// a word summed over its pieces, from a word averaged; hidden columns dropped and rows renormalised). Below, the
// model's learned position embeddings beside sinusoidal ones, and one head computed step by step. The model opens on a
// worker the first time the view is shown (not at start-up: 90 MB), explanations run on a worker too, latest text wins.
class PretrainedView : public QWidget {
    Q_OBJECT
public:
    explicit PretrainedView(QWidget* parent = nullptr);
    ~PretrainedView() override;

    void setDataDir(const QString& dir); // where File > Datasets... puts models; reopened when it changes
    void reload();                       // after an install: look for the model again
    bool isLoaded() const { return encoder_ != nullptr; }
    bool isBusy() const;
    const std::optional<ModelExplanation>& explanation() const { return explanation_; }
    const AttentionSnapshot& shownSnapshot() const { return shown_; } // as drawn: grouped, with the rollout
    void setText(const QString& text);   // as if typed, explained at once
    AttentionStepsView* attentionSteps() const { return steps_; } // the Step by step tab
    // Parts by object name: pretrainedHeader, pretrainedInput, pretrainedMergeWords, pretrainedHideSpecial,
    // pretrainedTokens, pretrainedGrid, pretrainedHeatmap, pretrainedExport, pretrainedPositions, pretrainedInstall.

signals:
    void statusMessage(const QString& text);
    void explained();
    void installRequested(); // the "not installed" note's button: File > Datasets...

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Result;
    void load();
    void requestExplanation();
    void opened(const Result& r); // on the GUI thread, once the model is open
    void redraw();
    void exportMap();

    QString dataDir_;
    std::shared_ptr<const PretrainedEncoder> encoder_;
    bool loadStarted_ = false;
    std::optional<ModelExplanation> explanation_;
    AttentionSnapshot shown_;

    QLabel* header_;
    QPushButton* install_;
    QLineEdit* input_;
    QCheckBox* mergeWords_;
    QCheckBox* hideSpecial_;
    QLabel* tokens_;
    AttentionThumbnailGrid* grid_;
    AttentionHeatmap* heatmap_;
    PositionTechniqueView* positions_;
    AttentionStepsView* steps_; // one head step by step on the typed text
    QTimer* debounce_;
    LatestRequestRunner* loading_;    // opening the model
    LatestRequestRunner* explaining_; // the typed text: the latest wins
};

} // namespace attnlab::ui
