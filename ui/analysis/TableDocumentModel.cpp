#include "ui/analysis/TableDocumentModel.h"

#include <QFont>

namespace attnlab::ui {

void TableDocumentModel::setDocument(TableDocument document)
{
    beginResetModel();
    document_ = std::move(document);
    endResetModel();
}

int TableDocumentModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(document_.rows.size());
}

int TableDocumentModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(document_.header.size());
}

QVariant TableDocumentModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto& row = document_.rows[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<std::size_t>(index.column());
    const TableDocument::Cell cell = column < row.size() ? row[column] : TableDocument::Cell{};
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return QString::fromStdString(cell.text);
    case Qt::UserRole: { // the leading number, for sorting and for tests
        bool ok = false;
        const double value = QString::fromStdString(cell.text).section(QLatin1Char(' '), 0, 0).toDouble(&ok);
        return ok ? QVariant(value) : QVariant(QString::fromStdString(cell.text));
    }
    case Qt::FontRole:
        if (cell.bold) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        return column < document_.numeric.size() && document_.numeric[column]
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant TableDocumentModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    return QString::fromStdString(document_.header[static_cast<std::size_t>(section)]);
}

} // namespace attnlab::ui
