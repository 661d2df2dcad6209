#pragma once
// Reading the window's run list as a user reads it: a cell as the view shows it, a status as its word.
#include "tests/support/StatusText.h"

#include <QTableView>
#include <QVariant>

// A cell of the run table as its view shows it (row in display order).
inline QVariant cell(const QTableView* table, int row, int column, int role = Qt::DisplayRole)
{
    return table->model()->index(row, column).data(role);
}
