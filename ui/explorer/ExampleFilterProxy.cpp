#include "ui/explorer/ExampleFilterProxy.h"

#include "ui/explorer/ExamplePredictionModel.h"

namespace attnlab::ui {

ExampleFilterProxy::ExampleFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(Qt::UserRole);
}

void ExampleFilterProxy::setMisclassifiedOnly(bool on)
{
    misclassifiedOnly_ = on;
    invalidateRowsFilter();
}

void ExampleFilterProxy::setClasses(int gold, int predicted)
{
    gold_ = gold;
    predicted_ = predicted;
    invalidateRowsFilter();
}

void ExampleFilterProxy::setText(const QString& text)
{
    text_ = text.trimmed();
    invalidateRowsFilter();
}

bool ExampleFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex row = sourceModel()->index(sourceRow, ExamplePredictionModel::Text, sourceParent);
    const int gold = row.data(ExamplePredictionModel::GoldRole).toInt();
    const int predicted = row.data(ExamplePredictionModel::PredictedRole).toInt();
    if (misclassifiedOnly_ && gold == predicted)
        return false;
    if ((gold_ >= 0 && gold != gold_) || (predicted_ >= 0 && predicted != predicted_))
        return false;
    if (text_.isEmpty())
        return true;
    const QString text = row.data().toString();
    for (const QString& word : text_.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        if (!text.contains(word, Qt::CaseInsensitive))
            return false;
    return true;
}

} // namespace attnlab::ui
