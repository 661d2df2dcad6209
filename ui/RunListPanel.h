#pragma once
#include "core/RunRecord.h"

#include <QList>
#include <QWidget>

#include <vector>

class QTableWidget;

namespace attnlab::ui {

// The history: one row per stored run, newest first. Selecting a row asks for that run to be shown.
class RunListPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { Id, Started, Dataset, Model, Position, Status, BestDev, Test, Device, Steps, Seconds, ColumnCount };

    explicit RunListPanel(QWidget* parent = nullptr);

    // Replaces the rows; keeps the selection when that run is still listed, without re-announcing it.
    void setRuns(const std::vector<RunRecord>& runs);
    // Selects the run's row; emits runSelected unless quietly is set. False when it is not listed.
    bool selectRun(qint64 runId, bool quietly = false);
    qint64 selectedRunId() const; // 0 when none
    QList<qint64> runIds() const; // in display order
    int runCount() const;
    QTableWidget* table() const { return table_; }

signals:
    void runSelected(qint64 runId);

private:
    int rowOf(qint64 runId) const;

    QTableWidget* table_;
};

} // namespace attnlab::ui
