#pragma once
#include "core/results/AttentionStepByStep.h"

#include <QWidget>

#include <functional>
#include <optional>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableView;

namespace attnlab::ui {

class LatestRequestRunner;
class TableDocumentModel;

// One head of a self-attention model computed step by step for one query token, as the decks write
// softmax(q k^T / sqrt(d_k)) V: a row per key with q . k_j, the position term, the score after the division, the
// mask, the softmax weight and the weight the model's own forward pass used; under it the query's input, q and
// what leaves the head. The numbers come from the engine (ModelExplainer / TextGenerator::stepByStep) on a worker
// thread, latest request wins. The table exports as CSV, Markdown or LaTeX.
// Parts by object name: stepsLayer, stepsHead, stepsQuery, stepsCaption, stepsTable, stepsVectors, stepsCheck,
// stepsExport.
class AttentionStepsView : public QWidget {
    Q_OBJECT
public:
    // Computes one head's steps on the subject's text; a query < 0 is the text's last token. Runs off the GUI
    // thread, so it captures what it needs by value (the model as a shared pointer, the text as a copy). Throws
    // std::invalid_argument naming the layer, head or query it cannot take.
    using Compute = std::function<AttentionStepByStep(int layer, int head, int query)>;

    explicit AttentionStepsView(QWidget* parent = nullptr);
    ~AttentionStepsView() override;

    // A new text or model: `layers` x `heads` to choose from, the steps recomputed at once for the chosen layer,
    // head and query (kept where they still exist; else `query`, < 0 the last token).
    void setSubject(Compute compute, int layers, int heads, int query = 0);
    void clear(const QString& message);
    void showHead(int layer, int head); // 0-based, as a clicked map names them
    const std::optional<AttentionStepByStep>& shown() const { return shown_; }
    int heightForWidth(int width) const override;

Q_SIGNALS:
    void updated(); // new steps (or a message) on screen
    void statusMessage(const QString& text);

private:
    void recompute();
    void show(const AttentionStepByStep& steps);
    void exportTable();

    Compute compute_;
    std::optional<AttentionStepByStep> shown_;
    int defaultQuery_ = 0;
    LatestRequestRunner* running_;
    QSpinBox* layer_;
    QSpinBox* head_;
    QComboBox* query_;
    QLabel* caption_;
    QTableView* table_;
    TableDocumentModel* model_;
    QLabel* vectors_;
    QLabel* check_;
};

} // namespace attnlab::ui
