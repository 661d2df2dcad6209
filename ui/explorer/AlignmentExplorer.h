#pragma once
#include "core/config/SamplingSettings.h"
#include "core/results/RunRecord.h"
#include "core/results/Translation.h"
#include "ui/LatestRequestRunner.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace attnlab {
class RunStore;
class Translator;
} // namespace attnlab

namespace attnlab::ui {

class AttentionHeatmap;
class BeamTree;
class DrawingControls;
class TranslationStepsView;

// The Explorer of a translation run: a stored encoder-decoder opened from its checkpoint (Translator,
// on a worker thread) to translate a typed source at once, with its alignment (target words down, source words
// across; every layer, head and self-attention one selector away; on reverse / copy / sort the gold alignment
// outlined and its AER). Decoding step by step: at step t the attention row over the source and the decoder's
// likeliest next tokens. The beam: every finished hypothesis as a tree of shared prefixes with its score, the kept
// one marked, each with its own alignment. Any head of the shown translation computed step by step (q, k, q . k,
// the scaling, the mask, the softmax). A typed translation is scored word by word instead (forced), the words
// where the model would have said something else marked. The newest request wins; older results are dropped.
class AlignmentExplorer : public QWidget {
    Q_OBJECT
public:
    explicit AlignmentExplorer(QWidget* parent = nullptr);
    ~AlignmentExplorer() override;

    void setStore(RunStore* store) { store_ = store; }
    void setRun(qint64 runId); // opens its weights; translates the probe pair's source when they are open
    void clear(const QString& message);
    qint64 runId() const { return runId_; }

    // What the user does with the source and target fields and the beam box (the tests call these too). With
    // "Draw the words" on (drawing()), the translation is drawn with its settings and the beam is not used.
    void translate(const QString& source, int beamSize = 0); // 0: the run's beam size
    void force(const QString& source, const QString& target);
    void showStep(int step);       // the decoding step's row of the alignment and its alternatives
    void showHypothesis(int index); // a beam hypothesis' own alignment in the large map
    void setWordsShown(bool words); // word pieces merged into words in the large map (a subword run)

    bool isReady() const { return translator_ != nullptr; }
    bool isBusy() const { return opening_->isBusy() || translating_->isBusy(); }
    const std::optional<Translation>& shown() const { return shown_; }
    AttentionHeatmap* heatmap() const { return heatmap_; }
    TranslationStepsView* attentionSteps() const { return attentionSteps_; }
    DrawingControls* drawing() const { return drawing_; }
    void exportMap();

signals:
    void statusMessage(const QString& text);
    void translated(); // a result is on screen
    void ready();      // the run's weights are open

private:
    struct Request {
        QString source, target;
        int beamSize = 0;
        std::optional<SamplingSettings> sampling; // a drawn translation
    };
    void submit(const Request& request);
    void opened(const std::shared_ptr<const Translator>& translator); // on the GUI thread, the weights open
    void display(const Translation& translation);
    void fillSteps(const Translation& translation);
    void setInputEnabled(bool enabled, const QString& why);
    void drawLargeMap(); // the kept translation's maps, over pieces or words

    RunStore* store_ = nullptr;
    qint64 runId_ = 0;
    LatestRequestRunner* opening_;     // the chosen run's weights: the latest run wins
    LatestRequestRunner* translating_; // a translation or a forced target: the latest request wins
    std::shared_ptr<const Translator> translator_;
    std::optional<Translation> shown_;
    QString probeSource_;

    QLabel* header_;
    QLineEdit* source_;
    QLineEdit* target_;
    QSpinBox* beam_;
    DrawingControls* drawing_;
    QCheckBox* words_; // a subword run's maps over words (pieces merged), shown only for one
    QPushButton* translateButton_;
    QPushButton* forceButton_;
    QLabel* result_;
    AttentionHeatmap* heatmap_;
    QSlider* stepSlider_;
    QLabel* stepLabel_;
    AttentionHeatmap* stepMap_;
    QTableWidget* steps_;
    BeamTree* beamTree_;
    TranslationStepsView* attentionSteps_; // one head of the shown translation, step by step
};

} // namespace attnlab::ui
