// attnlab-cli bench --lengths (attention's price), run as a user runs it: every family measured at every length and
// stored, the sliding-window family's columns, a length past the memory skipped with the reason (no crash), and bad
// lengths refused naming the flag.
#include "tests/support/CliProcess.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

class TestCliBenchLengths : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void measuresEveryFamilyAndStoresIt()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        auto r = runCli({"bench", "--lengths", "16,48", "--models", "transformer,transformer-local,lstm", "--d-model", "16",
                         "--attention-window", "4", "--steps", "1", "--device", "cpu", "--threads", "1", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto o = r.json().object();
        QVERIFY(o["protocol"].toString().contains("batch of 2 random sentences"));
        const auto models = o["models"].toArray();
        QCOMPARE(models.size(), 3);
        for (const auto m : models) {
            const auto family = m.toObject();
            const auto points = family["points"].toArray();
            QCOMPARE(points.size(), 2);
            QCOMPARE(points[1].toObject()["length"].toInt(), 48);
            for (const auto p : points) {
                QVERIFY(p.toObject()["train_ms"].toDouble() > 0.0);
                QVERIFY(p.toObject()["forward_ms"].toDouble() > 0.0);
                QVERIFY(p.toObject().contains("peak_memory_mib"));
            }
            QVERIFY(family["run_id"].toInteger() > 0);
        }
        QVERIFY(models[1].toObject()["summary"].toString().contains("sliding window +-4 with 1 global tokens"));
        // The stored runs: tagged, their figures as characteristics.
        r = runCli({"runs", "list", "--tag", "lengths", "--db", db, "--json"});
        QCOMPARE(r.json().array().size(), 3);
        r = runCli({"runs", "show", QString::number(models[0].toObject()["run_id"].toInteger()), "--db", db});
        QVERIFY2(r.out.contains("train_ms.48") && r.out.contains("forward_ms.16") && r.out.contains("train_slope"), qPrintable(r.out));
        // The table form names the families and the slope.
        r = runCli({"bench", "--lengths", "16,32", "--models", "kim-cnn", "--d-model", "16", "--steps", "1", "--device",
                    "cpu", "--no-store"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("ms per training step") && r.out.contains("CNN") && r.out.contains("slope"));
    }

    // A length whose full attention cannot fit is skipped with its estimate, and so are the longer ones; the shorter
    // ones and the other families are measured.
    void aLengthPastTheMemoryIsSkippedWithTheReason()
    {
        auto r = runCli({"bench", "--lengths", "16,65536", "--models", "transformer", "--d-model", "16", "--steps", "1",
                         "--device", "cpu", "--no-store", "--json"});
        QCOMPARE(r.code, 0);
        const auto points = r.json().object()["models"].toArray()[0].toObject()["points"].toArray();
        QVERIFY(points[0].toObject()["train_ms"].toDouble() > 0.0);
        QVERIFY2(points[1].toObject()["skipped"].toString().contains("length 65536 needs about"), qPrintable(r.out));
        QVERIFY(points[1].toObject()["skipped"].toString().contains("GiB"));
    }

    void badLengthsAreRefusedNamingTheFlag()
    {
        auto r = runCli({"bench", "--lengths", "16,abc", "--no-store"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--lengths: 'abc' is not a whole number"), qPrintable(r.err));
        r = runCli({"bench", "--lengths", "1,16", "--no-store"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--lengths: each length must be 2 to 65536"));
        r = runCli({"bench", "--lengths", "16", "--models", "gpt", "--no-store"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--models: unknown family 'gpt' (known: rnn, lstm"));
        r = runCli({"bench", "--lengths", "16", "--heads", "3", "--no-store"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--heads: must divide d_model 64"));
        r = runCli({"bench", "--lengths", "16", "--attention-window", "0", "--no-store"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--attention-window: the sliding-window family needs a window of at least 1"));
    }
};

QTEST_GUILESS_MAIN(TestCliBenchLengths)
#include "test_cli_bench_lengths.moc"
