#pragma once
#include "core/config/HeadSelection.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <string>

class QCheckBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace attnlab {
class PretrainedLanguageModel;
class RunStore;
struct AttentionStepByStep;
struct GeneratedText;
struct SamplingSettings;
} // namespace attnlab

namespace attnlab::ui {

class AttentionStepsView;
class AttentionText;
class LatestRequestRunner;

// The Explorer of a language model's run: a prompt, the next token's distribution as bars (the model's own
// probabilities beside the ones it is drawn from, which temperature, top-k and top-p change at once), Step (one
// token drawn and appended, with its attention over the context for a chosen layer and head) and Write (as many
// tokens as asked); each plot exports with its numbers. Everything runs off the GUI thread through TextGenerator,
// latest request wins.
class WritingExplorer : public QWidget {
    Q_OBJECT
public:
    explicit WritingExplorer(QWidget* parent = nullptr);
    ~WritingExplorer() override;
    void setStore(RunStore* store) { store_ = store; }
    void setRun(qint64 runId);
    qint64 runId() const { return runId_; }
    // A pretrained language model instead of a run's (SmolLM2 in the Real LLM tab): its pieces, 30 x 9 heads; the
    // heads in `ablate` knocked out of everything it writes.
    void setPretrained(std::shared_ptr<const PretrainedLanguageModel> model, const QString& prompt,
                       const HeadSelection& ablate = {});
    void clear(const QString& message);
    QString text() const; // the prompt and all written so far
    AttentionStepsView* attentionSteps() const { return steps_; }
    AttentionText* attentionText() const { return attentionText_; }
    int heightForWidth(int width) const override;
    // What the two plots show as CSV (TableWriter): the bars (rank, token, the model's probability, the one the token
    // is drawn from) and the attention of the chosen layer and head over the whole context (position in the text,
    // token, weight). Empty when nothing is shown.
    QString barsCsv() const;
    QString attentionCsv() const;
    // Export…: the plot as PNG, SVG or PDF and its CSV beside it (FigureExport); the status line says what was saved.
    void exportBars();
    void exportAttention();

Q_SIGNALS:
    void ready();   // the run's model is open
    void updated(); // a distribution or a written text is on screen

private:
    SamplingSettings sampling(int tokens) const;
    void preview();           // the next token's distribution for the text as it is
    void write(int tokens);   // tokens drawn and appended
    void show(const GeneratedText& written, bool append);
    void drawAttention();

    // What the view writes with: a run's TextGenerator or a PretrainedLanguageModel, behind the same three calls.
    struct Writer {
        std::function<GeneratedText(const std::string&, const SamplingSettings&, int, bool)> generate;
        std::function<AttentionStepByStep(const std::string&, int, int, int)> stepByStep; // query -1: the last token
        int layers = 1, heads = 1;
        bool attention = true;
        QString noAttention; // why there is no head to compute, when attention is false
    };
    void opened(std::shared_ptr<const Writer> writer, const QString& prompt, const QString& status);

    RunStore* store_ = nullptr;
    qint64 runId_ = 0;
    std::shared_ptr<const Writer> writer_;
    LatestRequestRunner* opening_;
    LatestRequestRunner* running_;
    QLabel* header_;
    QLabel* status_;
    QPlainTextEdit* text_;
    QDoubleSpinBox* temperature_;
    QSpinBox* topK_;
    QDoubleSpinBox* topP_;
    QSpinBox* seed_;
    QSpinBox* tokens_;
    QCheckBox* greedy_;
    QPushButton* step_;
    QPushButton* write_;
    QCustomPlot* bars_;
    QCustomPlot* attention_;
    AttentionText* attentionText_; // the same weights on the context written out
    QSpinBox* layer_;
    QSpinBox* head_;
    AttentionStepsView* steps_; // one head step by step on the text's last token
    QTabWidget* attentionTabs_;
    std::unique_ptr<GeneratedText> last_; // the last step drawn: its attention is what the lower plot shows
    std::unique_ptr<GeneratedText> shown_; // the prompt and the one step whose distribution the bars show
    int draws_ = 0;                       // draws so far: each Step draws with the seed + this, so a sequence repeats
};

} // namespace attnlab::ui
