#pragma once
#include "core/analysis/TableDocument.h"
#include "core/results/RunRecord.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableView;

namespace attnlab::ui {

class TableDocumentModel;

// The thesis' table shape over the whole store: rows = a run field (models), columns = another
// (datasets), cells = a metric's mean ± std (n) over completed runs, best of each column in bold, a
// macro-average column, and optionally the thesis' own numbers in rows of their own. Computed by
// core/analysis/ResultsMatrix; exported as CSV, Markdown or LaTeX through the same TableDocument.
// Controls by object name: matrixRows, matrixColumns, matrixMetric, matrixDecimals, matrixThesis,
// matrixAverage, matrixExport, matrixCopy; the table is resultsMatrixTable, the summary matrixSummary.
class ResultsMatrixView : public QWidget {
    Q_OBJECT
public:
    explicit ResultsMatrixView(QWidget* parent = nullptr);

    void setRuns(std::vector<RunRecord> runs); // every run the store has; only completed ones count
    const TableDocument& table() const;
    double lastBuildMilliseconds() const { return lastBuildMs_; }

public slots:
    void exportTable();
    void copyTable();

signals:
    void statusMessage(const QString& text);

private:
    void rebuild();

    std::vector<RunRecord> runs_;
    QComboBox* rows_;
    QComboBox* columns_;
    QComboBox* metric_;
    QSpinBox* decimals_;
    QCheckBox* thesis_;
    QCheckBox* average_;
    QCheckBox* top_;
    QLabel* summary_;
    QTableView* view_;
    TableDocumentModel* model_;
    double lastBuildMs_ = 0.0;
};

} // namespace attnlab::ui
