#include "ui/runs/RunFilterProxy.h"

#include "ui/runs/RunTableModel.h"

#include <utility>

namespace attnlab::ui {

RunFilterProxy::RunFilterProxy(RunTableModel* model, QObject* parent) : QSortFilterProxyModel(parent), model_(model)
{
    setSourceModel(model);
    setSortRole(RunTableModel::SortRole);
}

const RunFilterQuery& RunFilterProxy::setFilterText(const QString& text)
{
    RunFilterQuery query = RunFilterQuery::parse(text);
    if (query == query_)
        return query_;
    query_ = std::move(query);
    invalidateFilter();
    return query_;
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    return !sourceParent.isValid() && (query_.isEmpty() || model_->matches(sourceRow, query_));
}

bool RunFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    return model_->lessThan(left.row(), right.row(), left.column());
}

} // namespace attnlab::ui
