// attnlab-cli runs (list, show, export, import, tag, note, rename, delete, groups) and bench (thesis Table 5.4 protocol),
// run as a user runs them, against real stores in temporary folders.
#include "tests/support/CliProcess.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>

class TestCliRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listShowTagNoteGroups()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        auto r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "bow", "--position", "none", "--steps", "40",
                      "--eval-every", "20", "--repeat", "2", "--seed", "7", "--device", "cpu", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto trained = r.json().object()["runs"].toArray();
        QCOMPARE(trained.size(), 2);
        r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "lstm", "--position", "none", "--steps", "20",
                 "--eval-every", "10", "--device", "cpu", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const qint64 lstmId = r.json().object()["run_id"].toInteger();

        r = runCli({"runs", "list", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        auto list = r.json().array();
        QCOMPARE(list.size(), 3);
        QCOMPARE(list[0].toObject()["id"].toInteger(), lstmId); // newest first
        r = runCli({"runs", "list", "--db", db, "--model", "bow", "--sort", "test", "--json"});
        list = r.json().array();
        QCOMPARE(list.size(), 2);
        QVERIFY(list[0].toObject()["test_accuracy"].toDouble() >= list[1].toObject()["test_accuracy"].toDouble());
        for (const auto run : list) { // the stored results are the ones train printed
            bool found = false;
            for (const auto t : trained)
                if (t.toObject()["run_id"].toInteger() == run.toObject()["id"].toInteger()) {
                    QCOMPARE(run.toObject()["test_accuracy"].toDouble(), t.toObject()["test_accuracy"].toDouble());
                    QCOMPARE(run.toObject()["seed"].toInteger(), t.toObject()["seed"].toInteger());
                    found = true;
                }
            QVERIFY(found);
        }
        r = runCli({"runs", "list", "--db", db}); // the human table
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("id"));
        QCOMPARE(r.out.trimmed().split('\n').size(), 4);
        QVERIFY(r.err.contains("3 runs in " + db));

        r = runCli({"runs", "tag", QString::number(lstmId), "--tags", "baseline,lstm", "--db", db});
        QCOMPARE(r.code, 0);
        r = runCli({"runs", "note", QString::number(lstmId), "--text", "too few steps to mean anything", "--db", db});
        QCOMPARE(r.code, 0);
        r = runCli({"runs", "list", "--tag", "baseline", "--db", db, "--json"});
        QCOMPARE(r.json().array().size(), 1);
        QCOMPARE(r.json().array()[0].toObject()["notes"].toString(), QString("too few steps to mean anything"));
        r = runCli({"runs", "list", "--search", "FEW STEPS", "--db", db, "--json"});
        QCOMPARE(r.json().array().size(), 1);

        r = runCli({"runs", "show", QString::number(lstmId), "--db", db});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("run " + QString::number(lstmId) + ": lstm on synthetic-sentiment (completed)"), qPrintable(r.out));
        QVERIFY(r.out.contains("tags        baseline lstm"));
        QVERIFY(r.out.contains("dev accuracy"));
        r = runCli({"runs", "show", QString::number(lstmId), "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY(!r.json().object()["runs"].toArray()[0].toObject()["metrics"].toArray().isEmpty());

        // Repeats of one configuration are one group: mean and sample std of the two test accuracies.
        r = runCli({"runs", "groups", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        bool sawBow = false;
        for (const auto g : r.json().array()) {
            const auto o = g.toObject();
            if (o["model"].toString() != "bow")
                continue;
            sawBow = true;
            QCOMPARE(o["completed"].toInt(), 2);
            const double a = trained[0].toObject()["test_accuracy"].toDouble(), b = trained[1].toObject()["test_accuracy"].toDouble();
            QVERIFY(std::abs(o["test_accuracy_mean"].toDouble() - (a + b) / 2) < 1e-12);
            QVERIFY(std::abs(o["test_accuracy_std"].toDouble() - std::abs(a - b) / std::sqrt(2.0)) < 1e-12);
        }
        QVERIFY(sawBow);

        // Bad input: named, nothing changed.
        r = runCli({"runs", "show", "999", "--db", db});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no run 999"), qPrintable(r.err));
        r = runCli({"runs", "show", "abc", "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("a run id is a positive integer, got 'abc'"));
        r = runCli({"runs", "list", "--sort", "accuracy", "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--sort expects started, test, dev or name"));
        r = runCli({"runs", "list", "--status", "done", "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown run status 'done'"));
        r = runCli({"runs", "frobnicate", "--db", db});
        QCOMPARE(r.code, 2);
        r = runCli({"runs", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("runs export [--out FILE]"));
        r = runCli({"runs", "list", "--db", db, "--json"});
        QCOMPARE(r.json().array().size(), 3);
    }

    // runs compare (results + only what differs), runs table (thesis-shaped matrix, three formats) and
    // runs export to standard output, against numbers train itself printed.
    void compareTableAndExportToStdout()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        auto r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "bow", "--position", "none", "--steps", "30",
                      "--eval-every", "10", "--repeat", "2", "--seed", "7", "--device", "cpu", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto bows = r.json().object()["runs"].toArray();
        r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "lstm", "--position", "none", "--steps", "20",
                 "--eval-every", "10", "--device", "cpu", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const QString a = QString::number(bows[0].toObject()["run_id"].toInteger());
        const QString b = QString::number(bows[1].toObject()["run_id"].toInteger());

        // Two repeats differ only in their seed.
        r = runCli({"runs", "compare", a, b, "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto diff = r.json().object()["config_diff"].toArray();
        QCOMPARE(diff.size(), 1);
        QCOMPARE(diff[0].toObject()["key"].toString(), QString("seed"));
        QCOMPARE(diff[0].toObject()["values"].toArray()[0].toString(), QString("7"));
        QCOMPARE(diff[0].toObject()["values"].toArray()[1].toString(), QString("8"));
        QVERIFY(r.json().object()["config_keys"].toInt() > 30);
        QCOMPARE(r.json().object()["runs"].toArray().size(), 2);
        r = runCli({"runs", "compare", a, b, "--db", db});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("configuration: 1 of "), qPrintable(r.out));
        QVERIFY(r.out.contains("| seed | 7 | 8 |"));
        r = runCli({"runs", "compare", a, "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("two or more"));

        // The matrix: bow's cell is the mean and sample std of the two test accuracies train printed.
        r = runCli({"runs", "table", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto m = r.json().object();
        QCOMPARE(m["rows"].toArray()[0].toString(), QString("bow"));
        QCOMPARE(m["rows"].toArray()[1].toString(), QString("lstm"));
        QCOMPARE(m["columns"].toArray()[0].toString(), QString("synthetic-sentiment"));
        const double x = bows[0].toObject()["test_accuracy"].toDouble(), y = bows[1].toObject()["test_accuracy"].toDouble();
        const auto bowCell = m["cells"].toArray()[0].toArray()[0].toObject();
        QCOMPARE(bowCell["n"].toInt(), 2);
        QVERIFY(std::abs(bowCell["mean"].toDouble() - (x + y) / 2) < 1e-12);
        QVERIFY(std::abs(bowCell["std"].toDouble() - std::abs(x - y) / std::sqrt(2.0)) < 1e-12);
        QCOMPARE(m["runs_used"].toInt(), 3);

        r = runCli({"runs", "table", "--db", db, "--format", "csv", "--decimals", "3"});
        QCOMPARE(r.code, 0);
        const auto lines = r.out.split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QString("model,synthetic-sentiment"));
        QVERIFY2(lines[1].startsWith("bow," + QString::number(100 * (x + y) / 2, 'f', 3)), qPrintable(lines[1]));
        r = runCli({"runs", "table", "--db", db, "--format", "latex", "--rows", "model,seed"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("\\toprule") && r.out.contains("bow / 7 &") && r.out.contains("\\bottomrule"));
        // --top: bow's best single run before its mean, as the thesis' Table 5.6 prints Top beside Avg.
        r = runCli({"runs", "table", "--db", db, "--format", "csv", "--decimals", "3", "--top"});
        QCOMPARE(r.code, 0);
        const auto topLines = r.out.split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(topLines[0], QString("model,synthetic-sentiment top,synthetic-sentiment"));
        QVERIFY2(topLines[1].startsWith("bow," + QString::number(100 * std::max(x, y), 'f', 3) + ","),
                 qPrintable(topLines[1]));
        const QString md = dir.filePath("table.md");
        r = runCli({"runs", "table", "--db", db, "--out", md});
        QCOMPARE(r.code, 0);
        QFile mdFile(md);
        QVERIFY(mdFile.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(mdFile.readAll()).contains("| model | synthetic-sentiment |"));
        r = runCli({"runs", "table", "--db", db, "--format", "xlsx"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--format") && r.err.contains("csv, markdown or latex"));
        r = runCli({"runs", "table", "--db", db, "--metric", "accuracy"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("test_accuracy"));
        r = runCli({"runs", "table", "--help"});
        QCOMPARE(r.code, 0);

        // export without --out: the document on standard output, nothing else.
        r = runCli({"runs", "export", "--db", db});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().object()["runs"].toArray().size(), 3);
        r = runCli({"runs", "export", "--db", db, "--format", "csv", a});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.split("\r\n", Qt::SkipEmptyParts).size(), 2);
    }

    void exportThenImportMergesOnce()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("a.sqlite"), other = dir.filePath("b.sqlite");
        auto r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "bow", "--position", "none", "--steps", "30",
                      "--eval-every", "10", "--repeat", "2", "--device", "cpu", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto json = dir.filePath("runs.json"), csv = dir.filePath("runs.csv");
        r = runCli({"runs", "export", "--out", json, "--db", db});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("exported 2 runs"));
        r = runCli({"runs", "export", "--out", csv, "--db", db, "1"});
        QCOMPARE(r.code, 0);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto rows = QString::fromUtf8(f.readAll()).split("\r\n", Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 2); // header + run 1
        QVERIFY(rows[0].contains("uuid"));

        r = runCli({"runs", "import", json, "--db", other, "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().object()["added"].toInt(), 2);
        r = runCli({"runs", "import", db, "--db", other, "--json"}); // the same runs from the database file itself
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().object()["added"].toInt(), 0);
        QCOMPARE(r.json().object()["skipped"].toInt(), 2);
        r = runCli({"runs", "list", "--db", other, "--json"});
        QCOMPARE(r.json().array().size(), 2);

        r = runCli({"runs", "export", "--out", dir.filePath("runs.txt"), "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--format json|csv"));
        r = runCli({"runs", "import", dir.filePath("missing.json"), "--db", other});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("missing.json"), qPrintable(r.err));
        r = runCli({"runs", "export", "--out", json, "--db", db, "42"});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("no run 42"));
    }

    // train --checkpoint-dir: the best-dev weights (and the final ones, when the last step is another) are
    // written and the store names each file with its sha256.
    void checkpointsAreListedWithTheRun()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite"), checkpoints = dir.filePath("weights");
        auto r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--d-model", "16",
                      "--steps", "30", "--eval-every", "10", "--device", "cpu", "--db", db, "--checkpoint-dir", checkpoints,
                      "--json"});
        QCOMPARE(r.code, 0);
        const auto run = r.json().object();
        const int bestStep = run["best_step"].toInt();
        const QStringList files = QDir(checkpoints).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files.size(), bestStep == 30 ? 1 : 2);
        const QString best = files.filter(QRegularExpression("-step" + QString::number(bestStep) + "\\.pt$")).value(0);
        QVERIFY2(!best.isEmpty(), qPrintable(files.join(", ")));
        if (bestStep != 30)
            QVERIFY2(files.filter(QRegularExpression("-step30-final\\.pt$")).size() == 1, qPrintable(files.join(", ")));
        r = runCli({"runs", "show", QString::number(run["run_id"].toInteger()), "--db", db});
        QVERIFY2(r.out.contains("checkpoint  step " + QString::number(bestStep) + ": " + QDir(checkpoints).filePath(best)),
                 qPrintable(r.out));
        r = runCli({"runs", "show", QString::number(run["run_id"].toInteger()), "--db", db, "--json"});
        const auto stored = r.json().object()["runs"].toArray()[0].toObject()["checkpoints"].toArray();
        QCOMPARE(stored.size(), files.size());
        QFile f(QDir(checkpoints).filePath(best));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(stored[0].toObject()["sha256"].toString(),
                 QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex()));
    }

    // explain: by default a run keeps its weights beside the store, and explain runs a sentence through
    // them; without weights it says why (or shows the stored snapshot for --step); a changed file is refused.
    void explainUsesTheStoredCheckpoint()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        auto r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "essan", "--position", "rpr", "--d-model", "16",
                         "--layers", "2", "--heads", "2", "--steps", "40", "--eval-every", "20", "--device", "cpu", "--db", db,
                         "--json"});
        QCOMPARE(r.code, 0);
        const QString id = QString::number(r.json().object()["run_id"].toInteger());
        QVERIFY(!QDir(dir.filePath("checkpoints")).entryList(QDir::Files).isEmpty()); // beside the store
        r = runCli({"explain", "--run", id, "--text", "The acting is not charming", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto e = r.json().object();
        QCOMPARE(e["tokens"].toArray().size(), 5);
        QCOMPARE(e["tokens"].toArray()[0].toString(), QString("the")); // lowercased like the vocabulary
        double sum = 0.0;
        for (const auto p : e["probabilities"].toArray())
            sum += p.toDouble();
        QVERIFY(std::abs(sum - 1.0) < 1e-9);
        QCOMPARE(e["maps"].toArray().size(), 4); // 2 layers x 2 heads
        for (const auto m : e["maps"].toArray()) {
            const auto w = m.toObject()["weights"].toArray();
            QCOMPARE(w.size(), 25);
            for (int q = 0; q < 5; ++q) { // rows are distributions over the 5 real tokens
                double row = 0.0;
                for (int k = 0; k < 5; ++k)
                    row += w[q * 5 + k].toDouble();
                QVERIFY(std::abs(row - 1.0) < 1e-4);
            }
        }
        QCOMPARE(e["rollout"].toArray().size(), 25);
        QCOMPARE(e["pooling"].toObject()["weights"].toArray().size(), 5);
        r = runCli({"explain", "--run", id, "--text", "not bad at all", "--db", db});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("prediction: ") && r.out.contains("layer 2 head 2") && r.out.contains("attention rollout"),
                 qPrintable(r.out));

        // Explanation methods: every one in JSON, a score per token, IG's completeness reported;
        // the text form a column per method; bad methods and options refused naming the flag (exit 2).
        r = runCli({"explain", "--run", id, "--text", "The acting is not charming", "--db", db, "--method", "all",
                    "--ig-steps", "16", "--json"});
        QCOMPARE(r.code, 0);
        const auto attributions = r.json().object()["attributions"].toArray();
        QCOMPARE(attributions.size(), 7);
        for (const auto a : attributions) {
            QCOMPARE(a.toObject()["scores"].toArray().size(), 5);
            QCOMPARE(a.toObject()["target"].toString(), r.json().object()["predicted"].toString());
        }
        const auto ig = attributions[5].toObject();
        QCOMPARE(ig["method"].toString(), QString("ig"));
        QCOMPARE(ig["steps"].toInt(), 16);
        double igSum = 0.0;
        for (const auto v : ig["scores"].toArray())
            igSum += v.toDouble();
        QVERIFY(std::abs(std::abs(igSum - (ig["probability"].toDouble() - ig["baseline_probability"].toDouble())) -
                         ig["completeness_gap"].toDouble()) < 1e-9);
        r = runCli({"explain", "--run", id, "--text", "not bad at all", "--db", db, "--method", "occlusion,ig", "--target", "0"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("occlusion") && r.out.contains("completeness gap") && r.out.contains("p(very negative)"),
                 qPrintable(r.out));
        r = runCli({"explain", "--run", id, "--text", "not bad", "--db", db, "--method", "lime"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--method: unknown method 'lime'"), qPrintable(r.err));
        r = runCli({"explain", "--run", id, "--text", "not bad", "--db", db, "--method", "ig", "--ig-steps", "0"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--ig-steps: between 1 and 1024"), qPrintable(r.err));
        r = runCli({"explain", "--run", id, "--text", "not bad", "--db", db, "--method", "ig", "--target", "9"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--target 9: the model has 5 classes"), qPrintable(r.err));
        r = runCli({"explain", "--run", id, "--text", "not bad", "--db", db, "--ig-steps", "8"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--ig-steps goes with --method"), qPrintable(r.err));

        // Faithfulness: a limited measure is shown, not stored; the full one is stored with the run
        // and shown from the store the next time; bad options exit 2 naming the flag.
        r = runCli({"faithfulness", "--run", id, "--db", db, "--limit", "5", "--methods", "ig,attention", "--json"});
        QCOMPARE(r.code, 0);
        auto report = r.json().object();
        QCOMPARE(report["examples"].toInt(), 5);
        QCOMPARE(report["methods"].toArray().size(), 3); // ig, attention, random
        QCOMPARE(report["methods"].toArray()[2].toObject()["method"].toString(), QString("random"));
        QCOMPARE(report["methods"].toArray()[0].toObject()["deletion"].toArray().size(), 11);
        QVERIFY2(r.err.contains("faithfulness: 5 / 5 sentences"), qPrintable(r.err));
        r = runCli({"faithfulness", "--run", id, "--db", db});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("AOPC del") && r.out.contains("occlusion") && r.out.contains("random"), qPrintable(r.out));
        r = runCli({"faithfulness", "--run", id, "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("faithfulness: stored"), qPrintable(r.err));
        QCOMPARE(r.json().object()["methods"].toArray().size(), 8);
        QVERIFY(r.json().object()["examples"].toInt() > 5);
        r = runCli({"faithfulness", "--run", id, "--db", db, "--split", "train"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--split: dev or test"), qPrintable(r.err));
        r = runCli({"faithfulness", "--run", id, "--db", db, "--methods", "saliency"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--methods: unknown method 'saliency'"), qPrintable(r.err));

        // Agreement across seeds: a second run of the same model, another seed; the distances are
        // Jensen-Shannon distances in [0, 1], attention's own distance to attention is not printed.
        r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "essan", "--position", "rpr", "--d-model", "16",
                    "--layers", "2", "--heads", "2", "--steps", "40", "--eval-every", "20", "--device", "cpu", "--db", db,
                    "--seed", "9", "--json"});
        QCOMPARE(r.code, 0);
        const QString second = QString::number(r.json().object()["run_id"].toInteger());
        r = runCli({"agreement", "--runs", id + "," + second, "--db", db, "--limit", "4", "--methods", "occlusion", "--json"});
        QCOMPARE(r.code, 0);
        const auto agreement = r.json().object();
        QCOMPARE(agreement["examples"].toInt(), 4);
        QCOMPARE(agreement["runs"].toArray().size(), 2);
        QCOMPARE(agreement["methods"].toArray().size(), 2); // attention, occlusion
        for (const auto m : agreement["methods"].toArray()) {
            QCOMPARE(m.toObject()["sentences"].toInt(), 4);
            const double across = m.toObject()["js_across_seeds"].toDouble();
            QVERIFY(across > 0 && across <= 1);
        }
        QVERIFY(agreement["methods"].toArray()[1].toObject()["js_to_attention"].toDouble() > 0);
        QVERIFY2(r.err.contains("agreement: 4 / 4 sentences"), qPrintable(r.err));
        r = runCli({"agreement", "--runs", id + "," + second, "--db", db, "--limit", "2", "--methods", "grad"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("JS across seeds") && r.out.contains("grad"), qPrintable(r.out));
        r = runCli({"agreement", "--runs", id, "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--runs: at least two run ids"), qPrintable(r.err));

        // The permutation test: a TVD per sentence in [0, 1], summarised; bad counts exit 2.
        r = runCli({"permutation", "--run", id, "--db", db, "--limit", "3", "--permutations", "5", "--json"});
        QCOMPARE(r.code, 0);
        const auto permutation = r.json().object();
        QCOMPARE(permutation["tested"].toInt(), 3);
        QCOMPARE(permutation["permutations"].toInt(), 5);
        QVERIFY(permutation["median_tvd"].toDouble() >= 0 && permutation["median_tvd"].toDouble() <= 1);
        QCOMPARE(permutation["by_peak_attention"].toArray().size(), 3);
        r = runCli({"permutation", "--run", id, "--db", db, "--limit", "2", "--permutations", "3"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("median TVD") && r.out.contains("by the largest attention weight"), qPrintable(r.out));
        r = runCli({"permutation", "--run", id, "--db", db, "--permutations", "0"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--permutations: between 1 and 1000"), qPrintable(r.err));

        // --step S where no weights of S were kept: the stored snapshot nearest to S, said so on stderr.
        r = runCli({"explain", "--run", id, "--step", "19", "--text", "not bad", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().object()["step"].toInt(), 20);
        QVERIFY(!r.json().object()["weights_kept"].toBool());

        r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--d-model", "16",
                    "--steps", "20", "--eval-every", "10", "--device", "cpu", "--db", db, "--no-checkpoint", "--json"});
        QCOMPARE(r.code, 0);
        const QString bare = QString::number(r.json().object()["run_id"].toInteger());
        r = runCli({"explain", "--run", bare, "--text", "not bad", "--db", db});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("kept no weights") && r.err.count('\n') == 1, qPrintable(r.err));

        for (const QString& file : QDir(dir.filePath("checkpoints")).entryList(QDir::Files)) {
            QFile f(QDir(dir.filePath("checkpoints")).filePath(file));
            QVERIFY(f.open(QIODevice::Append));
            f.write("\n");
        }
        r = runCli({"explain", "--run", id, "--text", "not bad", "--db", db});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("sha256") && r.err.contains("not loaded"), qPrintable(r.err));

        r = runCli({"explain", "--run", id, "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--text"));
        r = runCli({"explain", "--run", "x1", "--text", "a", "--db", db});
        QCOMPARE(r.code, 2);
        r = runCli({"explain", "--run", "99", "--text", "a", "--db", db});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("no run 99"));
    }

    // runs delete: refused without --yes when nobody can be asked; with --yes the runs, their rows and their
    // checkpoint files go, the other run stays whole. runs rename: the name round-trips.
    void deleteAndRename()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite"), checkpoints = dir.filePath("weights");
        auto r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--d-model", "16",
                         "--steps", "20", "--eval-every", "20", "--repeat", "3", "--device", "cpu", "--db", db,
                         "--checkpoint-dir", checkpoints, "--json"}); // one evaluation: best = final, one file each
        QCOMPARE(r.code, 0);
        const auto trained = r.json().object()["runs"].toArray();
        QCOMPARE(trained.size(), 3);
        QStringList ids;
        QList<QJsonArray> files;
        int metricsOfFirstTwo = 0;
        for (const auto t : trained) {
            ids << QString::number(t.toObject()["run_id"].toInteger());
            const auto bundle = runCli({"runs", "show", ids.last(), "--db", db, "--json"}).json().object()["runs"].toArray()[0].toObject();
            files << bundle["checkpoints"].toArray();
            QCOMPARE(files.last().size(), 1);
            QVERIFY(QFile::exists(files.last()[0].toObject()["path"].toString()));
            if (ids.size() <= 2)
                metricsOfFirstTwo += static_cast<int>(bundle["metrics"].toArray().size());
        }
        QVERIFY(metricsOfFirstTwo > 0);

        // QProcess's stdin is a pipe, not a terminal: no one to ask, so nothing is deleted.
        r = runCli({"runs", "delete", ids[0], "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("not deleting 1 run (" + ids[0] + ") and 1 checkpoint file without confirmation"), qPrintable(r.err));
        QVERIFY(r.err.contains("add --yes"));
        QCOMPARE(r.err.trimmed().split('\n').size(), 2); // the error and the hint, not the usage
        QCOMPARE(runCli({"runs", "list", "--db", db, "--json"}).json().array().size(), 3);
        r = runCli({"runs", "delete", ids[0], "999", "--yes", "--db", db}); // every id is checked first
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("no run 999"));
        QCOMPARE(runCli({"runs", "list", "--db", db, "--json"}).json().array().size(), 3);

        r = runCli({"runs", "delete", ids[0], ids[1], "--yes", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto removed = r.json().object();
        QCOMPARE(removed["deleted"].toArray().size(), 2);
        QCOMPARE(removed["deleted"].toArray()[0].toInteger(), ids[0].toLongLong());
        QCOMPARE(removed["metrics"].toInt(), metricsOfFirstTwo);
        QCOMPARE(removed["checkpoints"].toInt(), 2);
        QCOMPARE(removed["files_removed"].toArray().size(), 2);
        QVERIFY(removed["files_not_removed"].toArray().isEmpty());
        QVERIFY(!QFile::exists(files[0][0].toObject()["path"].toString()));
        QVERIFY(!QFile::exists(files[1][0].toObject()["path"].toString()));
        QVERIFY(QFile::exists(files[2][0].toObject()["path"].toString()));
        const auto left = runCli({"runs", "list", "--db", db, "--json"}).json().array();
        QCOMPARE(left.size(), 1);
        QCOMPARE(left[0].toObject()["id"].toInteger(), ids[2].toLongLong());
        r = runCli({"runs", "show", ids[0], "--db", db});
        QCOMPARE(r.code, 1);
        QVERIFY(!runCli({"runs", "show", ids[2], "--db", db, "--json"}).json().object()["runs"].toArray()[0]
                     .toObject()["metrics"].toArray().isEmpty());

        r = runCli({"runs", "rename", ids[2], "--name", "warm-up check", "--db", db});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("run " + ids[2] + " renamed: warm-up check"), qPrintable(r.out));
        QCOMPARE(runCli({"runs", "list", "--db", db, "--json"}).json().array()[0].toObject()["name"].toString(),
                 QString("warm-up check"));
        r = runCli({"runs", "rename", ids[2], "--db", db});
        QCOMPARE(r.code, 2);
        r = runCli({"runs", "rename", ids[0], "--name", "x", "--db", db});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("no run " + ids[0]));

        r = runCli({"runs", "delete", ids[2], "--yes", "--db", db}); // the human line
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("deleted 1 run (" + ids[2] + ") from " + db), qPrintable(r.out));
        QVERIFY(r.out.contains("1 of 1 checkpoint files removed"));
        r = runCli({"runs", "--help"});
        QVERIFY(r.out.contains("runs delete ID... [--yes]"));
        QVERIFY(r.out.contains("runs rename ID --name NAME"));
    }

    // Table 5.4 protocol: exact parameter counts at d_model 300, the batch counts the protocol implies,
    // memory and times measured, one stored run per model with its characteristics.
    void benchMeasuresAndStores()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        auto r = runCli({"bench", "--dataset", "synthetic-sentiment", "--models", "ssan-rpr,ssan2-rpr", "--epochs", "1",
                      "--passes", "3", "--device", "cpu", "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto o = r.json().object();
        QVERIFY(o["protocol"].toString().contains("1 epoch x"));
        const auto models = o["models"].toArray();
        QCOMPARE(models.size(), 2);
        QCOMPARE(models[0].toObject()["params"].toInteger(), 465605); // thesis Table 5.4: 465,600
        QCOMPARE(models[1].toObject()["params"].toInteger(), 839405); // 839,400
        r = runCli({"stats", "synthetic-sentiment", "--json"});
        QCOMPARE(r.code, 0);
        const auto splits = r.json().object()["splits"].toObject();
        const int train = splits["train"].toObject()["examples"].toInt(), dev = splits["dev"].toObject()["examples"].toInt();
        QVERIFY2(train > 0 && dev > 0, qPrintable(r.out));
        for (const auto m : models) {
            const auto b = m.toObject();
            QCOMPARE(b["train_batches"].toInt(), (train + 31) / 32);
            QCOMPARE(b["predict_batches"].toInt(), 3 * ((dev + 31) / 32));
            QVERIFY(b["train_seconds"].toDouble() > 0 && b["predict_seconds"].toDouble() > 0);
            QVERIFY(b["peak_memory_mib"].toDouble() >= b["baseline_memory_mib"].toDouble());
            QVERIFY(b["peak_memory_mib"].toDouble() > 10);
            QVERIFY(std::isfinite(b["last_train_loss"].toDouble()) && b["last_train_loss"].toDouble() > 0);
            QCOMPARE(b["process"].toString(), QString("own")); // each model measured in a fresh process
        }
        r = runCli({"runs", "list", "--tag", "bench", "--db", db, "--json"});
        QCOMPARE(r.json().array().size(), 2);
        const auto id = QString::number(models[1].toObject()["run_id"].toInteger());
        r = runCli({"runs", "show", id, "--db", db});
        QVERIFY2(r.out.contains("train_batches"), qPrintable(r.out));
        QVERIFY(r.out.contains("params            839405"));

        r = runCli({"bench", "--dataset", "synthetic-sentiment", "--models", "cnn,lstm", "--epochs", "1", "--passes", "1", "--d-model", "32",
                 "--device", "cpu", "--no-store", "--one-process", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().object()["models"].toArray()[1].toObject()["process"].toString(), QString("shared"));
        QCOMPARE(r.json().object()["db"].toString(), QString());

        r = runCli({"bench", "--models", "ssan-rpr,gpt", "--dataset", "synthetic-sentiment", "--no-store"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown model 'gpt' (known: lstm, bilstm, cnn"));
        r = runCli({"bench", "--epochs", "0", "--dataset", "synthetic-sentiment", "--no-store"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--epochs: at least 1"));
        r = runCli({"bench", "--dataset", "sml2010", "--no-store"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("time series"));
    }
};

QTEST_GUILESS_MAIN(TestCliRuns)
#include "test_cli_runs.moc"
