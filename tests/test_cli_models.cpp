// attnlab-cli train runs every registered model with every position technique it takes.
#include "core/Registry.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

class TestCliModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyModelAndPositionTrains()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        int runs = 0;
        for (const auto& model : attnlab::Registry::models()) {
            if (model.task == "regression")
                continue;
            for (const auto& position : model.positions) {
                const QString name = QString::fromStdString(model.id + "+" + position);
                const bool multiHead = model.id == "essan" || model.id == "transformer";
                QProcess p;
                p.start(ATTNLAB_CLI_PATH, {"train", "--dataset", "synthetic-sentiment", "--model",
                                           QString::fromStdString(model.id), "--position", QString::fromStdString(position),
                                           "--steps", "4", "--eval-every", "2", "--d-model", "16", "--heads",
                                           multiHead ? "2" : "1", "--db", db, "--device", "cpu", "--json"});
                QVERIFY2(p.waitForFinished(120000), qPrintable(name));
                const QString err = QString::fromUtf8(p.readAllStandardError());
                QVERIFY2(p.exitCode() == 0, qPrintable(name + ": " + err));
                const auto lines = QString::fromUtf8(p.readAllStandardOutput()).trimmed().split('\n');
                const auto o = QJsonDocument::fromJson(lines.last().toUtf8()).object();
                QCOMPARE(o["status"].toString(), QString("completed"));
                QCOMPARE(o["steps"].toInt(), 4);
                QVERIFY2(o["params"].toInteger() > 0, qPrintable(name));
                ++runs;
            }
        }
        QVERIFY(runs >= 26); // 3 attention models x 6 positions + 8 others
    }

    void everyTimeSeriesModelTrains()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        int runs = 0;
        for (const auto& model : attnlab::Registry::models()) {
            if (model.task == "classification")
                continue;
            const QString name = QString::fromStdString(model.id);
            QProcess p;
            p.start(ATTNLAB_CLI_PATH, {"train", "--dataset", "synthetic-lag", "--model", name, "--position",
                                       model.id == "essan" ? "rpr" : "none", "--steps", "4", "--eval-every", "2",
                                       "--d-model", "16", "--heads", "2", "--db", db, "--device", "cpu", "--json"});
            QVERIFY2(p.waitForFinished(120000), qPrintable(name));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QVERIFY2(p.exitCode() == 0, qPrintable(name + ": " + err));
            const auto lines = QString::fromUtf8(p.readAllStandardOutput()).trimmed().split('\n');
            const auto o = QJsonDocument::fromJson(lines.last().toUtf8()).object();
            QCOMPARE(o["status"].toString(), QString("completed"));
            QVERIFY2(o["test_rmse"].toDouble() > 0.0, qPrintable(name));
            QVERIFY2(o["test_mae"].toDouble() <= o["test_rmse"].toDouble(), qPrintable(name));
            ++runs;
        }
        QCOMPARE(runs, 5);
        // A classifier on a time series is refused before anything runs, naming the problem.
        QProcess p;
        p.start(ATTNLAB_CLI_PATH, {"train", "--dataset", "synthetic-lag", "--model", "cnn", "--position", "none", "--db", db});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("is a classification model"));
    }
};

QTEST_GUILESS_MAIN(TestCliModels)
#include "test_cli_models.moc"
