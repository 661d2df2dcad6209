#pragma once
#include "core/store/RunRecord.h"

#include <QList>
#include <QWidget>

#include <vector>

class QLineEdit;
class QTabWidget;
class QTableWidget;

namespace attnlab::ui {

// The history: one row per stored run, newest first. Selecting a row asks for that run to be shown.
// A filter box hides the rows that do not mention its words (name, dataset, model, position, status,
// tags, notes); tags and notes are edited in place and handed to whoever owns the store. A second tab,
// "Repeats", shows each configuration's completed runs as mean ± sample std, as the thesis reports them.
class RunListPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { Id, Started, Dataset, Model, Position, Status, BestDev, Test, Device, Steps, Seconds, Tags, Notes,
                  ColumnCount };
    enum GroupColumn { GroupDataset, GroupModel, GroupPosition, GroupRuns, GroupTestMean, GroupTestStd, GroupBestDev,
                       GroupColumnCount };

    explicit RunListPanel(QWidget* parent = nullptr);

    // Replaces the rows; keeps the selection when that run is still listed, without re-announcing it.
    void setRuns(const std::vector<RunRecord>& runs);
    void setAggregates(const std::vector<RunAggregate>& groups);
    // Shows only the rows whose text contains every word of the filter (case-insensitive).
    void setFilterText(const QString& text);
    int visibleRunCount() const;
    // Selects the run's row; emits runSelected unless quietly is set. False when it is not listed.
    bool selectRun(qint64 runId, bool quietly = false);
    qint64 selectedRunId() const; // 0 when none
    QList<qint64> runIds() const; // in display order
    int runCount() const;
    // The widgets are reached by their object names: runTable, groupTable, runFilter, runTabs.

signals:
    void runSelected(qint64 runId);
    void tagsEdited(qint64 runId, const QStringList& tags); // comma-separated in the cell
    void notesEdited(qint64 runId, const QString& notes);

private:
    int rowOf(qint64 runId) const;
    void applyFilter();

    QTableWidget* table_;
    QTableWidget* groups_;
    QLineEdit* filter_;
    QTabWidget* tabs_;
    bool filling_ = false; // setRuns is writing cells: not a user's edit
};

} // namespace attnlab::ui
