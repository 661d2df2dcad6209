// attnlab-cli as a user runs it: ids, exact parameter counts, a short training, bad input.
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

namespace {

struct Result {
    int code = -1;
    QString out, err;
    QJsonObject lastJson() const
    {
        const auto lines = out.trimmed().split('\n');
        return QJsonDocument::fromJson(lines.last().toUtf8()).object();
    }
};

Result cli(const QStringList& args)
{
    QProcess p;
    p.start(ATTNLAB_CLI_PATH, args);
    p.waitForFinished(180000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listShowsTheIds()
    {
        const auto r = cli({"list", "--json"});
        QCOMPARE(r.code, 0);
        const auto o = r.lastJson();
        QCOMPARE(o["datasets"].toArray()[0].toObject()["id"].toString(), QString("synthetic-sentiment"));
        QStringList models, positions;
        for (const auto m : o["models"].toArray()) models << m.toObject()["id"].toString();
        for (const auto p : o["positions"].toArray()) positions << p.toObject()["id"].toString();
        QVERIFY(models.contains("ssan") && models.contains("lstm"));
        QVERIFY(positions.contains("none") && positions.contains("rpr"));
    }

    void describeGivesExactCounts()
    {
        auto r = cli({"describe", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr",
                      "--d-model", "300", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.lastJson()["params"].toInteger(), 465605);
        r = cli({"describe", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--d-model",
                 "300", "--layers", "2", "--json"});
        QCOMPARE(r.lastJson()["params"].toInteger(), 839405);
        r = cli({"describe", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "none",
                 "--d-model", "300"});
        QVERIFY(r.out.contains("453005"));
    }

    void trainEndsWithOneJsonLine()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        const auto r = cli({"train", "--dataset", "synthetic-sentiment", "--model", "lstm", "--position", "none",
                            "--steps", "60", "--eval-every", "30", "--seed", "5", "--db", db, "--device", "cpu",
                            "--json"});
        QCOMPARE(r.code, 0);
        const auto o = r.lastJson();
        QCOMPARE(o["status"].toString(), QString("completed"));
        QCOMPARE(o["steps"].toInt(), 60);
        QVERIFY(o["run_id"].toInteger() >= 1);
        QVERIFY(o["params"].toInteger() > 0);
        QVERIFY(o["dev_accuracy"].toDouble() > 0.0 && o["dev_accuracy"].toDouble() <= 1.0);
        QVERIFY(o.contains("test_accuracy") && o.contains("seconds"));
        QVERIFY(QFile::exists(db));
    }

    void badInputIsRefusedClearly()
    {
        auto r = cli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--steps", "abc"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--steps expects an integer, got 'abc'"));
        r = cli({"train", "--dataset", "synthetic-sentiment", "--model", "gpt", "--position", "rpr"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown model 'gpt'"));
        r = cli({"describe", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--bogus", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown option '--bogus'"));
        r = cli({"describe", "--dataset", "synthetic-sentiment", "--model", "lstm", "--position", "rpr"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("does not apply"));
        r = cli({"frobnicate"});
        QCOMPARE(r.code, 2);
        r = cli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--rpr-clip", "0",
                 "--steps", "5", "--db", QDir::temp().filePath("attnlab-test-never-created.sqlite")});
        QCOMPARE(r.code, 2); // refused before training, with the setting named, and nothing stored
        QVERIFY(r.err.contains("rpr_clip: the clipping distance k must be at least 1"));
        QVERIFY(!QFile::exists(QDir::temp().filePath("attnlab-test-never-created.sqlite")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
