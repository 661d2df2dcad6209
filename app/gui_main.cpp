#include "core/platform/BuildInfo.h"
#include "core/store/RunStore.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Attention Lab"));
    QApplication::setOrganizationName(QStringLiteral("attnlab"));
    QApplication::setApplicationVersion(QString::fromStdString(attnlab::BuildInfo::appVersion()));

    // $ATTNLAB_DB first, then the database last opened from the File menu (if it is still there).
    QString dbPath = QString::fromStdString(attnlab::RunStore::defaultPath());
    const QString remembered = QSettings().value(QStringLiteral("store/path")).toString();
    if (qEnvironmentVariableIsEmpty("ATTNLAB_DB") && !remembered.isEmpty() && QFileInfo::exists(remembered))
        dbPath = remembered;
    QDir().mkpath(QFileInfo(dbPath).absolutePath()); // first start: ~/.local/share/attnlab may not exist
    attnlab::ui::MainWindow window(dbPath);
    window.show();
    return app.exec();
}
