#pragma once
#include "core/analysis/TableDocument.h"

#include <QCoreApplication>
#include <QString>

class QWidget;

namespace attnlab::ui {

// Saving a table: a file dialog offering CSV, Markdown and LaTeX (booktabs), the format taken from the
// chosen filter or the file's extension, written whole through TableWriter. Errors name the file.
class TableExportDialog {
    Q_DECLARE_TR_FUNCTIONS(TableExportDialog)

public:
    // Returns the written path, or an empty string when the user cancelled; throws std::runtime_error.
    static QString save(QWidget* parent, const TableDocument& table, const QString& suggestedName);
    static void write(const TableDocument& table, const QString& path); // format from the extension
    static QString copyText(const TableDocument& table); // tab-separated, for pasting into a spreadsheet
};

} // namespace attnlab::ui
