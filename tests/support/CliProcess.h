#pragma once
// Runs the built attnlab-cli (ATTNLAB_CLI_PATH, set by tests/CMakeLists.txt) and collects what it said.
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QString>
#include <QtCore/QStringList>

struct CliResult {
    int code = -1;
    QString out, err;
    // The last line of stdout as JSON: train --json prints its result there, after any other output.
    QJsonDocument json() const { return QJsonDocument::fromJson(out.trimmed().split('\n').last().toUtf8()); }
    QJsonObject lastJson() const { return json().object(); }
};

inline CliResult runCli(const QStringList& args, int timeoutMs = 300000)
{
    QProcess p;
    p.start(QStringLiteral(ATTNLAB_CLI_PATH), args);
    p.waitForFinished(timeoutMs);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}
