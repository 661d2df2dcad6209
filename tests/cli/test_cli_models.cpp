// attnlab-cli train runs every registered model with every position technique it takes.
#include "core/config/Registry.h"
#include "tests/support/CliProcess.h"

#include <QtCore/QJsonArray>
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

    // explain --gates: a stored BiLSTM's gates at every token, both directions; a model without gates says so.
    void gatesOfAStoredRun()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        CliResult r =
            runCli({"train", "--dataset", "synthetic-sentiment", "--model", "bilstm", "--position", "none", "--steps",
                    "6", "--eval-every", "3", "--d-model", "8", "--db", db, "--device", "cpu", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString run = QString::number(r.lastJson()["run_id"].toInt());
        r = runCli({"explain", "--run", run, "--text", "the film was great", "--gates", "--json", "--db", db});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto o = r.lastJson();
        QCOMPARE(o["cell"].toString(), QStringLiteral("lstm"));
        QCOMPARE(o["tokens"].toArray().size(), 4);
        const auto layers = o["layers"].toArray();
        QCOMPARE(layers.size(), 2);
        QCOMPARE(layers[1].toObject()["direction"].toString(), QStringLiteral("backward"));
        const auto forget = layers[0].toObject()["gates"].toObject()["forget"].toArray();
        QCOMPARE(forget.size(), 4);
        for (const auto& token : forget) {
            QCOMPARE(token.toArray().size(), 8); // one value a unit, each a sigmoid's
            for (const auto& unit : token.toArray())
                QVERIFY(unit.toDouble() > 0.0 && unit.toDouble() < 1.0);
        }
        r = runCli({"explain", "--run", run, "--text", "the film was great", "--gates", "--db", db});
        QVERIFY2(r.code == 0 && r.out.contains("forget") && r.out.contains("layer 1 backward"),
                 qPrintable(r.out + r.err));
        r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "none", "--steps",
                    "2", "--eval-every", "2", "--d-model", "8", "--db", db, "--device", "cpu", "--json"});
        r = runCli({"explain", "--run", QString::number(r.lastJson()["run_id"].toInt()), "--text", "the film",
                    "--gates", "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("has no gates"), qPrintable(r.err));
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
