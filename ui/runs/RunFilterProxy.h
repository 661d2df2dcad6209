#pragma once
#include "ui/runs/RunFilterQuery.h"

#include <QSortFilterProxyModel>

namespace attnlab::ui {

class RunTableModel;

// Sorts and filters a RunTableModel for its view: a row is shown when every term of the RunFilterQuery
// holds for it (an invalid query shows every row, and its error is for the filter box to show), and columns sort by value through the model, without a QVariant per comparison,
// which keeps sorting and re-filtering 10,000 rows within a keystroke.
class RunFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunFilterProxy(RunTableModel* model, QObject* parent = nullptr);

    // Parses the text (see RunFilterQuery); re-filters only when the query changed. The parsed query, with
    // its error when the text is not a valid query, is returned.
    const RunFilterQuery& setFilterText(const QString& text);
    const RunFilterQuery& query() const { return query_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    RunTableModel* model_;
    RunFilterQuery query_;
};

} // namespace attnlab::ui
