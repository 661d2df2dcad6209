#include "ui/analysis/TableExportDialog.h"

#include "core/analysis/TableWriter.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>

#include <stdexcept>

namespace attnlab::ui {

QString TableExportDialog::save(QWidget* parent, const TableDocument& table, const QString& suggestedName)
{
    const QString csv = tr("CSV (*.csv)"), markdown = tr("Markdown (*.md)"), latex = tr("LaTeX, booktabs (*.tex)");
    QString filter = csv;
    QString path = QFileDialog::getSaveFileName(parent, tr("Export table"), suggestedName,
                                                csv + QStringLiteral(";;") + markdown + QStringLiteral(";;") + latex,
                                                &filter);
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == markdown ? QStringLiteral(".md") : filter == latex ? QStringLiteral(".tex") : QStringLiteral(".csv");
    write(table, path);
    return path;
}

void TableExportDialog::write(const TableDocument& table, const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    TableWriter::Format format = TableWriter::Format::Csv;
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown"))
        format = TableWriter::Format::Markdown;
    else if (suffix == QLatin1String("tex") || suffix == QLatin1String("latex"))
        format = TableWriter::Format::Latex;
    QSaveFile file(path); // whole or not at all
    const std::string text = TableWriter::write(table, format);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !file.commit())
        throw std::runtime_error(path.toStdString() + ": cannot write the table (" + file.errorString().toStdString() + ")");
}

QString TableExportDialog::copyText(const TableDocument& table)
{
    QString text;
    auto line = [&](const std::vector<std::string>& cells) {
        QStringList parts;
        for (const auto& c : cells)
            parts << QString::fromStdString(c);
        text += parts.join(QLatin1Char('\t')) + QLatin1Char('\n');
    };
    line(table.header);
    for (const auto& row : table.rows) {
        std::vector<std::string> cells;
        for (const auto& c : row)
            cells.push_back(c.text);
        line(cells);
    }
    return text;
}

} // namespace attnlab::ui
