#pragma once
#include "core/analysis/TableDocument.h"

#include <QAbstractTableModel>

namespace attnlab::ui {

// An engine TableDocument (results matrix, config diff, per-class scores) shown in a QTableView: the
// same cells that TableWriter exports, so what the user sees is what the file holds. Bold cells are
// bold; numeric columns are right-aligned; cells starting with a number sort by it.
class TableDocumentModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setDocument(TableDocument document);
    const TableDocument& document() const { return document_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    TableDocument document_;
};

} // namespace attnlab::ui
