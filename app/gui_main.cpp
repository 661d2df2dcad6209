#include "core/platform/AllocatorTuning.h"
#include "core/platform/BlasLibrary.h"
#include "core/platform/BuildInfo.h"
#include "core/store/RunStore.h"
#include "core/training/ComputeDevice.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <cstdio>
#include <cstring>
#include <memory>

int main(int argc, char** argv)
{
    attnlab::AllocatorTuning::applyForTraining(); // the window trains through the same engine
    // --help and --version answer without a display (a terminal, man page generation, a CI machine).
    bool answerOnly = false;
    for (int i = 1; i < argc; ++i)
        for (const char* flag : {"--help", "-h", "--help-all", "--version", "-v"})
            answerOnly = answerOnly || std::strcmp(argv[i], flag) == 0;
    std::unique_ptr<QCoreApplication> application =
        answerOnly ? std::make_unique<QCoreApplication>(argc, argv) : std::make_unique<QApplication>(argc, argv);
    QCoreApplication& app = *application;
    QCoreApplication::setApplicationName(QStringLiteral("Attention Lab"));
    QCoreApplication::setOrganizationName(QStringLiteral("attnlab"));
    const QString version = QString::fromStdString(
        attnlab::BuildInfo::appVersion() + " (git " + attnlab::BuildInfo::gitHash() + ", " +
        attnlab::ComputeDevice::buildDescription() + ")");
    QCoreApplication::setApplicationVersion(version);

    QCommandLineParser options;
    options.setApplicationDescription(QCoreApplication::translate(
        "main", "Train self-attention and recurrent networks, watch them learn, look inside them, compare runs."));
    options.addHelpOption();
    options.addVersionOption();
    const QCommandLineOption db(QStringLiteral("db"),
                                QCoreApplication::translate("main", "The run database (default $ATTNLAB_DB or "
                                                                "~/.local/share/attnlab/runs.sqlite)."),
                                QStringLiteral("FILE"));
    options.addOption(db);
    options.process(app); // --help and --version print and exit 0; an unknown option exits 1 naming it

    if (const std::string warning = attnlab::BlasLibrary::slowWarning(); !warning.empty())
        std::fprintf(stderr, "attnlab: warning: %s\n", warning.c_str());
    // --db, else $ATTNLAB_DB, else the database last opened from the File menu (if it is still there).
    QString dbPath = QString::fromStdString(attnlab::RunStore::defaultPath());
    const QString remembered = QSettings().value(QStringLiteral("store/path")).toString();
    if (options.isSet(db))
        dbPath = options.value(db);
    else if (qEnvironmentVariableIsEmpty("ATTNLAB_DB") && !remembered.isEmpty() && QFileInfo::exists(remembered))
        dbPath = remembered;
    QDir().mkpath(QFileInfo(dbPath).absolutePath()); // first start: ~/.local/share/attnlab may not exist
    attnlab::ui::MainWindow window(dbPath);
    window.restoreSettings(); // the last configuration and layout
    window.show();
    return app.exec();
}
