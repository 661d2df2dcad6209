#include "core/platform/BuildInfo.h"
#include "core/store/RunStore.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Attention Lab"));
    QApplication::setOrganizationName(QStringLiteral("attnlab"));
    QApplication::setApplicationVersion(QString::fromStdString(attnlab::BuildInfo::appVersion()));

    const QString dbPath = QString::fromStdString(attnlab::RunStore::defaultPath());
    QDir().mkpath(QFileInfo(dbPath).absolutePath()); // first start: ~/.local/share/attnlab may not exist
    attnlab::ui::MainWindow window(dbPath);
    window.show();
    return app.exec();
}
