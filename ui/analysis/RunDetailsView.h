#pragma once
#include "core/analysis/TableDocument.h"
#include "core/results/RunRecord.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTableView;

namespace attnlab::ui {

class TableDocumentModel;

// One run's results in full: for a classifier the test confusion matrix (true class down, predicted
// across, shaded by row share) and per-class precision / recall / F1 with macro-F1 (ClassificationMetrics,
// from the stored confusion); for a regressor MAE, RMSE and MAPE; and the characteristics a bench run
// measured (parameters, memory, seconds). Object names: detailsHeadline, confusionTable, perClassTable,
// characteristicsTable.
class RunDetailsView : public QWidget {
    Q_OBJECT
public:
    explicit RunDetailsView(QWidget* parent = nullptr);

    void setRun(const RunRecord& run, const std::vector<Characteristic>& characteristics);
    void clear(const QString& why);
    const TableDocument& confusionTable() const;
    const TableDocument& perClassTable() const;

private:
    QLabel* headline_;
    QTableView* confusion_;
    QTableView* perClass_;
    QTableView* characteristics_;
    TableDocumentModel* confusionModel_;
    TableDocumentModel* perClassModel_;
    TableDocumentModel* characteristicsModel_;
};

} // namespace attnlab::ui
