#include "ui/analysis/FigureExport.h"

#include "ui/analysis/ExportDialog.h"
#include "ui/analysis/PlotExporter.h"

#include <QtCore/QDir>
#include <QtCore/QFile>

namespace attnlab::ui {

QString FigureExport::run(QWidget* parent, QCustomPlot* plot, const QString& suggestedFile, const std::function<QString()>& csv)
{
    ExportDialog dialog(QDir::home().filePath(suggestedFile), parent);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    if (const QString error = PlotExporter::save({plot}, dialog.path(), dialog.exportWidth(), dialog.exportHeight(), dialog.dpi());
        !error.isEmpty())
        return error;
    const QString csvPath = dialog.path().section(QLatin1Char('.'), 0, -2) + QStringLiteral(".csv");
    QFile file(csvPath);
    const QByteArray text = csv().toUtf8();
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size())
        return QObject::tr("Saved %1, but not the numbers: %2: %3").arg(dialog.path(), csvPath, file.errorString());
    return QObject::tr("Saved %1 and its numbers in %2").arg(dialog.path(), csvPath);
}

} // namespace attnlab::ui
