#pragma once
#include "core/config/HeadSelection.h"
#include "core/config/TeachingScenario.h"
#include "core/results/AttentionSnapshot.h"
#include "core/results/HeadCopyScores.h"
#include "core/results/LogitLens.h"
#include "core/results/ModelExplanation.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTimer;

namespace attnlab {
class PretrainedLanguageModel;
}

namespace attnlab::ui {

class AttentionHeatmap;
class AttentionStepsView;
class AttentionThumbnailGrid;
class HeadScoreMap;
class LogitLensTable;
class LatestRequestRunner;
class WritingExplorer;

// A real pretrained LLM looked inside on a typed prompt (SmolLM2-135M-Instruct from File > Datasets…): its pieces
// with their ids and the next piece it expects; every one of its 30 x 9 heads (click one to enlarge); the writing
// view the lab's own GPT has; the logit lens (the likeliest next piece read at every layer and position); which heads
// copy (induction and previous-token scores on repeated random pieces, the two halves' losses); one head step by
// step; and heads knocked out — a set written "L.H, …" (or clicked in the copy maps), zeroed or replaced by their
// mean — which every reading then uses, with the intact model's next pieces beside. The model opens on a worker when
// the tab is first shown (98 MB, not at start-up); every reading runs on a worker, the latest request winning.
class PretrainedLlmView : public QWidget {
    Q_OBJECT
public:
    explicit PretrainedLlmView(QWidget* parent = nullptr);
    ~PretrainedLlmView() override;

    void setDataDir(const QString& dir); // where File > Datasets… puts models; reopened when it changes
    void reload(); // after an install: look for the model again
    bool isLoaded() const { return model_ != nullptr; }
    bool isBusy() const;
    void setText(const QString& text); // as if typed, read at once
    // Heads to knock out, as typed ("19.7, 18.5"); a bad set is refused in the status line, naming the head.
    void setAblation(const QString& heads, bool mean = false);
    void measureCopyingHeads(); // the Which heads copy tab's Measure
    void knockOutTopInductionHeads(int count);
    void showTab(int index);
    // An exploring lesson: its text above the view, its prompt read, its tab shown, its heads knocked out and,
    // if it asks, the copy scores measured (now, or as soon as the model is open).
    void openLesson(const QString& title, const QString& lesson, const TeachingScenario::Exploration& exploration);
    int currentTab() const;
    QString lessonText() const; // "" when no lesson opened the view
    const std::optional<ModelExplanation>& explanation() const { return explanation_; }
    const std::optional<LogitLens>& lens() const { return lens_; }
    const std::optional<HeadCopyScores>& copyScores() const { return copyScores_; }
    const HeadSelection& ablation() const { return ablation_; }
    QString nextPiecesText() const; // what the next-piece line shows
    WritingExplorer* writing() const { return writing_; }
    AttentionStepsView* attentionSteps() const { return steps_; }
    // Parts by object name: llmLesson, llmLessonHide, llmHeader, llmInstall, llmInput, llmAblate, llmAblateMode,
    // llmPieces, llmNext, llmTabs, llmGrid, llmHeatmap, llmExport, llmWriting, llmLens, llmLensExport, llmInduction,
    // llmPrevious, llmCopyLength, llmCopyMeasure, llmCopyKnockOut, llmCopySummary, llmCopyExport, llmSteps.

Q_SIGNALS:
    void statusMessage(const QString& text);
    void opened();
    void explained(); // the maps, the next pieces and the lens of the latest text are on screen
    void copyMeasured(); // the copy scores are on screen
    void installRequested();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Reading;
    void load();
    void requestReading();
    void present(const Reading& r);
    void showCopyScores();
    void exportMap();
    void exportLens();
    void exportCopyScores();
    void ablationEdited();

    QString dataDir_;
    std::shared_ptr<const PretrainedLanguageModel> model_;
    bool loadStarted_ = false;
    bool measureWhenOpen_ = false;
    HeadSelection ablation_;
    std::optional<ModelExplanation> explanation_;
    std::optional<LogitLens> lens_;
    std::optional<HeadCopyScores> copyScores_;
    QString nextPieces_;

    QLabel* lesson_;
    QWidget* lessonBox_ = nullptr;
    QLabel* header_;
    QPushButton* install_;
    QLineEdit* input_;
    QLineEdit* ablate_;
    QComboBox* ablateMode_;
    QLabel* pieces_;
    QLabel* next_;
    QTabWidget* tabs_;
    AttentionThumbnailGrid* grid_;
    AttentionHeatmap* heatmap_;
    WritingExplorer* writing_;
    LogitLensTable* lensTable_;
    HeadScoreMap* induction_;
    HeadScoreMap* previous_;
    QSpinBox* copyLength_;
    QLabel* copySummary_;
    AttentionStepsView* steps_;
    QTimer* debounce_;
    LatestRequestRunner* loading_;
    LatestRequestRunner* reading_;
    LatestRequestRunner* measuring_;
};

} // namespace attnlab::ui
