#include "ui/runs/RunFilterProxy.h"

#include "ui/runs/RunTableModel.h"

namespace attnlab::ui {

RunFilterProxy::RunFilterProxy(RunTableModel* model, QObject* parent) : QSortFilterProxyModel(parent), model_(model)
{
    setSourceModel(model);
    setSortRole(RunTableModel::SortRole);
}

void RunFilterProxy::setFilterWords(const QString& text)
{
    const QStringList words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == words_)
        return;
    words_ = words;
    invalidateFilter();
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    return !sourceParent.isValid() && (words_.isEmpty() || model_->matches(sourceRow, words_));
}

bool RunFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    return model_->lessThan(left.row(), right.row(), left.column());
}

} // namespace attnlab::ui
