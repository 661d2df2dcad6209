#pragma once
#include "core/platform/CancelToken.h"
#include "core/results/FaithfulnessReport.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace attnlab {
class ModelExplainer;
class RunStore;
}

namespace attnlab::ui {

// How faithful each explanation method is to one run's model, the Explorer's Faithfulness tab:
// the deletion (or insertion) curve of every method averaged over a split's sentences, the random order as
// the floor, and a table of AOPC, insertion area, Kendall's tau with attention, and on the built-in grammar
// how often each method's top token fell in the clause that decides the label. A report stored with the run
// (by attnlab-cli faithfulness or here) is shown at once; Measure computes one on a worker thread with
// progress and Cancel, and stores it (a cancelled one is shown, marked partial, not stored). Exports the
// plot (PNG/SVG/PDF) with the table and curves (CSV). Parts: faithfulnessSplit, faithfulnessMeasure,
// faithfulnessCancel, faithfulnessProgress, faithfulnessCurve (deletion|insertion), faithfulnessPlot,
// faithfulnessTable, faithfulnessSummary, faithfulnessExport.
class FaithfulnessView : public QWidget {
    Q_OBJECT
public:
    explicit FaithfulnessView(QWidget* parent = nullptr);
    ~FaithfulnessView() override;

    // The run (0: none) and, when its weights opened, its explainer (nullptr: Measure is off, with why).
    void setRun(RunStore* store, qint64 runId, std::shared_ptr<const ModelExplainer> explainer, const QString& whyNot);
    void measure();   // Measure, as the button does
    void cancel();    // Cancel, as the button does
    bool isMeasuring() const;
    const std::optional<FaithfulnessReport>& report() const { return report_; }
    bool reportFromStore() const { return fromStore_; }

signals:
    void statusMessage(const QString& text);
    void measured(); // a measurement ended (complete or cancelled) and is shown

private:
    struct Outcome {
        std::optional<FaithfulnessReport> report;
        QString error;
    };
    void showStored();
    void showReport();
    void exportReport();
    QString split() const;

    RunStore* store_ = nullptr;
    qint64 runId_ = 0;
    std::shared_ptr<const ModelExplainer> explainer_;
    std::optional<FaithfulnessReport> report_;
    bool fromStore_ = false;
    std::shared_ptr<CancelToken> cancel_;

    QComboBox* split_;
    QPushButton* measure_;
    QPushButton* cancelButton_;
    QProgressBar* progress_;
    QComboBox* curve_;
    QLabel* summary_;
    QCustomPlot* plot_;
    QTableView* table_;
    QStandardItemModel* model_;
    QFutureWatcher<std::shared_ptr<Outcome>>* watcher_;
};

} // namespace attnlab::ui
