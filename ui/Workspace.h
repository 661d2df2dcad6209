#pragma once
#include <QString>
#include <QTabWidget>

class QScrollArea;
class QSplitter;

namespace attnlab {
class RunStore;
}

namespace attnlab::ui {

class AlignmentExplorer;
class WritingExplorer;
class CompareView;
class ExplorerView;
class LiveComparisonView;
class PretrainedLlmView;
class PretrainedView;
class ResultsMatrixView;
class RunDetailsView;
class RunDifferencesView;
class RunReplay;
class TrainingView;

// The window's centre: one tab per view, in the order of View → Ctrl+1..8: Training (the live or selected
// run, a finished one with a replay bar above it), Explorer (the selected run's model, or a translation run's
// alignment explorer; it scrolls below ~630 px of height, a projector's 720 lines
// less the toolbar and the runs dock), Compare (the selection's curves and differences), Results matrix,
// Run details, Side by side, Pretrained (a pretrained transformer's heads; it scrolls too), Real LLM (SmolLM2 inside:
// its heads, writing, logit lens, induction heads, heads knocked out; it scrolls too). The window wires them to
// the run list, the store and the worker.
class Workspace : public QTabWidget {
    Q_OBJECT
public:
    explicit Workspace(const QString& dbPath, QWidget* parent = nullptr);

    TrainingView* training() const { return training_; }
    RunReplay* trainingReplay() const { return trainingReplay_; } // above the Training tab's plots (trainingReplay)
    ExplorerView* explorer() const { return explorer_; }
    AlignmentExplorer* alignment() const { return alignment_; } // the Explorer tab of a translation run
    WritingExplorer* writing() const { return writing_; }       // the Explorer tab of a language model's run
    QWidget* explorerPage() const; // the explorer's tab (a scroll area)
    // The Explorer tab for a run: the alignment explorer for a translation run, the explorer otherwise.
    void setStore(RunStore* store);
    void exploreRun(qint64 runId);
    qint64 exploredRunId() const; // the run the Explorer tab shows, 0 for none
    void clearExplorer(const QString& message);
    QSplitter* compareArea() const { return compareArea_; }
    CompareView* compareView() const { return compareView_; }
    RunDifferencesView* differences() const { return differences_; }
    ResultsMatrixView* matrix() const { return matrix_; }
    RunDetailsView* details() const { return details_; }
    LiveComparisonView* live() const { return live_; }
    PretrainedView* pretrained() const { return pretrained_; }
    PretrainedLlmView* llm() const { return llm_; }
    void showLlm(); // the Real LLM tab made current

protected:
    bool eventFilter(QObject* watched, QEvent* event) override; // the explorer's viewport resized: fitHeight

private:
    void showExplorerPage(QWidget* page); // the text or the translation explorer, sized by itself alone
    TrainingView* training_;
    RunReplay* trainingReplay_;
    ExplorerView* explorer_;
    AlignmentExplorer* alignment_;
    WritingExplorer* writing_;
    QScrollArea* explorerPage_;
    RunStore* store_ = nullptr;
    QSplitter* compareArea_;
    CompareView* compareView_;
    RunDifferencesView* differences_;
    ResultsMatrixView* matrix_;
    RunDetailsView* details_;
    LiveComparisonView* live_;
    PretrainedView* pretrained_;
    PretrainedLlmView* llm_;
};

} // namespace attnlab::ui
