#pragma once
#include "core/analysis/TableDocument.h"
#include "core/results/RunRecord.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;
class QTableView;

namespace attnlab::ui {

class TableDocumentModel;

// The selected runs side by side: their results, then only the configuration keys whose values differ
// (highlighted), or, one click away, the environment facts that differ (versions, device, host, CPU,
// dataset and embeddings hashes). core/analysis/ConfigDiff decides what differs.
// Object names: differencesTable, differencesEnvironment (the check box), differencesSummary, differencesExport.
class RunDifferencesView : public QWidget {
    Q_OBJECT
public:
    explicit RunDifferencesView(QWidget* parent = nullptr);

    void setRuns(std::vector<RunRecord> runs);
    const TableDocument& table() const;

signals:
    void statusMessage(const QString& text);

private:
    void rebuild();

    std::vector<RunRecord> runs_;
    QCheckBox* environment_;
    QLabel* summary_;
    QTableView* view_;
    TableDocumentModel* model_;
};

} // namespace attnlab::ui
