// attnlab-cli train runs every registered model with every position technique it takes.
#include "core/config/Registry.h"
#include "tests/support/CliProcess.h"

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
            if (!model.servesTask(attnlab::TaskKind::Classification) ||
                !model.pretrained
                     .empty()) // minilm: tests/core/test_pretrained trains it; language models: test_cli_language_model
                continue;
            for (const auto& position : model.positions) {
                const QString name = QString::fromStdString(model.id + "+" + position);
                const bool multiHead = model.id == "essan" || model.id == "transformer";
                const CliResult r = runCli({"train", "--dataset", "synthetic-sentiment", "--model",
                                            QString::fromStdString(model.id), "--position", QString::fromStdString(position),
                                            "--steps", "4", "--eval-every", "2", "--d-model", "16", "--heads",
                                            multiHead ? "2" : "1", "--db", db, "--device", "cpu", "--json"});
                QVERIFY2(r.code == 0, qPrintable(name + ": " + r.err));
                const auto o = r.lastJson();
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
            if (!model.servesTask(attnlab::TaskKind::Regression))
                continue;
            const QString name = QString::fromStdString(model.id);
            const CliResult r = runCli({"train", "--dataset", "synthetic-lag", "--model", name, "--position",
                                        model.id == "essan" ? "rpr" : "none", "--steps", "4", "--eval-every", "2",
                                        "--d-model", "16", "--heads", "2", "--db", db, "--device", "cpu", "--json"});
            QVERIFY2(r.code == 0, qPrintable(name + ": " + r.err));
            const auto o = r.lastJson();
            QCOMPARE(o["status"].toString(), QString("completed"));
            QVERIFY2(o["test_rmse"].toDouble() > 0.0, qPrintable(name));
            QVERIFY2(o["test_mae"].toDouble() <= o["test_rmse"].toDouble(), qPrintable(name));
            ++runs;
        }
        QCOMPARE(runs, 8); // essan, narx, encdec, attn-rnn, darnn; the baselines persistence, linear-ar and arima (one step each)
        // A classifier on a time series is refused before anything runs, naming the problem.
        const CliResult refused =
            runCli({"train", "--dataset", "synthetic-lag", "--model", "cnn", "--position", "none", "--db", db});
        QCOMPARE(refused.code, 2);
        QVERIFY(refused.err.contains("is a classification model"));
    }
};

QTEST_GUILESS_MAIN(TestCliModels)
#include "test_cli_models.moc"
