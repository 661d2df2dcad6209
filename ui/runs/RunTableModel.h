#pragma once
#include "core/results/RunSummary.h"
#include "core/results/RunRecord.h"

#include "ui/runs/RunFilterQuery.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace attnlab::ui {

// The stored runs as a table for RunListPanel's view: one row per run, in the order the store listed
// them (a RunFilterProxy sorts and filters). Rows keep only what the columns show, and the text of a cell
// is made when the view asks for it, so filling 10,000 rows costs little more than copying them.
// setRuns() merges by run id (rows removed, changed, added) instead of resetting, so a view's selection
// and scroll position survive the refreshes that come while a training writes.
// DisplayRole is the cell's text; SortRole (Qt::UserRole) the value it sorts by (numbers as numbers);
// RunIdRole the row's run id. Tags and Notes are editable: an edit is announced, for the store's owner.
class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Name, Started, Dataset, Model, Position, Status, BestDev, Test, Device, Steps, Seconds, Tags,
                  Notes, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int RunIdRole = Qt::UserRole + 1;

    explicit RunTableModel(QObject* parent = nullptr);

    void setRuns(const std::vector<RunRecord>& runs);
    qint64 runIdAt(int row) const;
    int rowOf(qint64 runId) const; // -1 when not listed
    // True when every term of the query holds for the row (a plain word: found in its id, name, dataset,
    // model, position, status, device, tags or notes).
    bool matches(int row, const RunFilterQuery& query) const;
    // Row a sorts before row b by this column's value (numbers by value, text without regard to case).
    bool lessThan(int a, int b, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void tagsEdited(qint64 runId, const QStringList& tags); // a comma-separated cell, split and trimmed
    void notesEdited(qint64 runId, const QString& notes);

private:
    struct Row {
        qint64 id = 0;
        QString name, dataset, model, position, device, tags, notes, message;
        std::string startedAt; // ISO 8601 UTC: sorts as time; shown in local time
        std::string configJson;
        RunSummary summary;    // the result columns, worded by RunResult
        bool hasDev = false, hasTest = false;
        bool takesPosition = true; // false: the model has no position technique (DA-RNN, LSTM, ...): shown as "—"
        double dev = 0.0, test = 0.0;
        QString search;        // lower-case text the filter looks in
        bool sameAs(const Row& other) const;
    };
    static Row rowFrom(const RunRecord& run);
    static void updateSearch(Row& row);
    QVariant display(const Row& row, int column) const;
    QVariant sortValue(const Row& row, int column) const;
    QVariant toolTip(const Row& row, int column) const;
    void reindex();

    std::vector<Row> rows_;
    QHash<qint64, int> rowOfId_;
};

} // namespace attnlab::ui
