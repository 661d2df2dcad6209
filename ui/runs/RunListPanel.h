#pragma once
#include "core/results/RunRecord.h"

#include <QList>
#include <QWidget>

#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QMenu;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace attnlab::ui {

class RunFilterProxy;
class RunTableModel;

// The history: one row per stored run, newest first (a QTableView over RunTableModel, sorted and
// filtered by RunFilterProxy, so 10,000 runs fill and filter within a keystroke). Rows can be selected
// several at a time; one selected run is announced to be shown. A filter box hides the rows that do not
// mention its words (id, name, dataset, model, position, status, device, tags, notes); tags and notes are
// edited in place and handed to whoever owns the store. A second tab, "Repeats", shows each
// configuration's completed runs as mean ± sample std, as the thesis reports them.
class RunListPanel : public QWidget {
    Q_OBJECT
public:
    enum GroupColumn { GroupDataset, GroupModel, GroupPosition, GroupRuns, GroupTestMean, GroupTestStd, GroupBestDev,
                       GroupColumnCount };

    explicit RunListPanel(QWidget* parent = nullptr);

    // Replaces the rows (merged by run id): the selection, the sort and the scroll position stay, and an
    // unchanged selection is not announced again.
    void setRuns(const std::vector<RunRecord>& runs);
    void setAggregates(const std::vector<RunAggregate>& groups);
    // Shows only the rows for which the filter holds (words, or "field:text", "test>45", ...: see
    // RunFilterQuery); a filter that is not a valid query shows every row and says why under the box.
    void setFilterText(const QString& text);
    QString filterText() const;
    QString filterError() const; // empty when the filter is a valid query
    int visibleRunCount() const;
    // Named filters (SavedFilters, in QSettings): saving keeps the current filter under a name; applying one
    // filters the list by it and selects every run it shows, so Compare overlays them.
    void saveFilter(const QString& name);
    bool applySavedFilter(const QString& name);
    bool deleteSavedFilter(const QString& name);
    QMenu* savedFiltersMenu() const { return savedMenu_; } // also offered by the window's Runs menu
    void selectAllShown();
    void focusFilter(); // Ctrl+F: the filter box, its text selected
    // Selects only this run's row; emits runSelected unless quietly is set. False when it is not shown.
    bool selectRun(qint64 runId, bool quietly = false);
    qint64 selectedRunId() const;          // the one selected run; 0 when none or several
    QList<qint64> selectedRunIds() const;  // in display order
    QList<qint64> runIds() const;          // the rows shown, in display order
    int runCount() const;                  // every listed run, shown or filtered out
    // Actions on the selected runs (delete, rename, tag, ...): the table's context menu.
    void addRunActions(const QList<QAction*>& actions);
    // The widgets are reached by their object names: runTable (a QTableView), groupTable, runFilter,
    // filterStatus, savedFiltersButton, runTabs.

signals:
    void runSelected(qint64 runId);                  // exactly one run became the selection
    void selectionChanged(const QList<qint64>& runIds);
    void tagsEdited(qint64 runId, const QStringList& tags); // comma-separated in the cell
    void notesEdited(qint64 runId, const QString& notes);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onSelectionChanged();
    void fitColumns();
    void onFilterEdited(const QString& text);
    void showFilterStatus();
    void fillSavedFiltersMenu();
    void askToSaveFilter();

    RunTableModel* model_;
    RunFilterProxy* proxy_;
    QTableView* table_;
    QTableWidget* groups_;
    QLineEdit* filter_;
    QLabel* filterStatus_;
    QMenu* savedMenu_;
    QTabWidget* tabs_;
    QList<qint64> announced_; // the selection last announced: refreshes that keep it say nothing
    bool quiet_ = false;      // selectRun(..., quietly): take the selection without announcing it
    bool sized_ = false;      // columns fitted to their contents once, on the first rows
};

} // namespace attnlab::ui
