#include "ui/training/ComparisonResultsModel.h"

#include "core/results/RunResult.h"
#include "core/results/RunStatus.h"

#include <QLocale>

#include <limits>

namespace attnlab::ui {

ComparisonResultsModel::ComparisonResultsModel(QObject* parent) : QAbstractTableModel(parent)
{
    setObjectName(QStringLiteral("comparisonResultsModel"));
}

void ComparisonResultsModel::clear()
{
    beginResetModel();
    rows_.clear();
    endResetModel();
}

void ComparisonResultsModel::addResult(qint64 runId, const QString& label, const QColor& colour,
                                       const RunSummary& summary, const QString& expected)
{
    const int row = static_cast<int>(rows_.size());
    beginInsertRows({}, row, row);
    rows_.push_back(Row{runId, label, colour, summary, expected});
    endInsertRows();
}

int ComparisonResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ComparisonResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonResultsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const RunResult result(row.summary);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double speed = row.summary.seconds > 0 ? row.summary.steps / row.summary.seconds : 0.0;
    if (role == Qt::DecorationRole && index.column() == RunColumn)
        return row.colour;
    if (role == Qt::TextAlignmentRole && index.column() >= DevColumn && index.column() != ExpectedColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole) {
        switch (index.column()) {
        case RunColumn: return row.runId;
        case DevColumn: return result.hasResults() ? result.devValue() : nan;
        case TestColumn: return result.hasTest() ? result.testValue() : nan;
        case ParamsColumn: return static_cast<qlonglong>(row.summary.parameters);
        case SecondsColumn: return row.summary.seconds;
        case SpeedColumn: return speed;
        default: return {};
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const QLocale locale;
    switch (index.column()) {
    case RunColumn: return tr("#%1 %2").arg(row.runId).arg(row.label);
    case StatusColumn:
        return row.summary.message.empty() || role == Qt::DisplayRole
            ? QString::fromStdString(toString(row.summary.status))
            : tr("%1: %2").arg(QString::fromStdString(toString(row.summary.status)),
                               QString::fromStdString(row.summary.message));
    case DevColumn: return QString::fromStdString(result.devText(2));
    case TestColumn: return QString::fromStdString(result.testText(2));
    case ExpectedColumn: return row.expected.isEmpty() ? tr("—") : row.expected;
    case ParamsColumn: return locale.toString(static_cast<qlonglong>(row.summary.parameters));
    case SecondsColumn: return locale.toString(row.summary.seconds, 'f', 1);
    case SpeedColumn: return locale.toString(speed, 'f', 1);
    default: return {};
    }
}

QVariant ComparisonResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RunColumn: return tr("Run");
    case StatusColumn: return tr("Status");
    case DevColumn: return tr("Best dev");
    case TestColumn: return tr("Test");
    case ExpectedColumn: return tr("Expected (RESULTS.md)");
    case ParamsColumn: return tr("Params");
    case SecondsColumn: return tr("Seconds");
    case SpeedColumn: return tr("Steps/s");
    default: return {};
    }
}

} // namespace attnlab::ui
