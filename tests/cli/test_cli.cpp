// attnlab-cli as a user runs it: ids, exact parameter counts, a short training, bad input.
#include "tests/support/CliProcess.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void listShowsTheIds()
    {
        const auto r = runCli({"list", "--json"});
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
        auto r = runCli({"describe", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr",
                      "--d-model", "300", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.lastJson()["params"].toInteger(), 465605);
        r = runCli({"describe", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--d-model",
                 "300", "--layers", "2", "--json"});
        QCOMPARE(r.lastJson()["params"].toInteger(), 839405);
        r = runCli({"describe", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "none",
                 "--d-model", "300"});
        QVERIFY(r.out.contains("453005"));
        // A language model counts every weight: the fixed-window LM's V d + (k d h + h) + (h V + V), k = n - 1.
        r = runCli({"describe", "--dataset", "synthetic-repeat", "--model", "ffn-lm", "--order", "6", "--d-model",
                    "300", "--ffn-hidden", "300", "--json"});
        QCOMPARE(r.code, 0);
        const qint64 v = r.lastJson()["vocabulary"].toInteger();
        QVERIFY(v > 1);
        QCOMPARE(r.lastJson()["params"].toInteger(), v * 300 + (5 * 300 * 300 + 300) + (300 * v + v));
        r = runCli({"describe", "--dataset", "synthetic-repeat", "--model", "ffn-lm", "--order", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("attnlab-cli: --order: 'ffn-lm' reads the n - 1 tokens"), qPrintable(r.err));
    }

    void trainEndsWithOneJsonLine()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        const auto r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "lstm", "--position", "none",
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

    // A time-series run reads as RMSE everywhere the command line shows it: train's finished line and
    // JSON, runs list (text and JSON) and runs show; never as an accuracy.
    void regressionReadsAsRmseEverywhere()
    {
        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        const auto r = runCli({"train", "--dataset", "synthetic-lag", "--model", "narx", "--position", "none", "--steps",
                               "40", "--eval-every", "20", "--d-model", "16", "--db", db, "--device", "cpu", "--json"});
        QCOMPARE(r.code, 0);
        const auto o = r.lastJson();
        const double rmse = o["test_rmse"].toDouble();
        QVERIFY(rmse > 0.0);
        QCOMPARE(o["dev_rmse"].toDouble(), o["best_dev_rmse"].toDouble());
        QVERIFY(!o.contains("test_accuracy") && !o.contains("dev_accuracy"));
        // stderr is not a terminal here: JSON lines, the finished one carrying RunResult's sentence.
        QString finished;
        for (const auto& line : r.err.split('\n'))
            if (QJsonDocument::fromJson(line.toUtf8()).object()["event"].toString() == "finished")
                finished = QJsonDocument::fromJson(line.toUtf8()).object()["text"].toString();
        QVERIFY2(finished.contains("best dev RMSE") && finished.contains("RMSE " + QString::number(rmse, 'f', 4)),
                 qPrintable(finished));
        QVERIFY2(!finished.contains('%') || finished.contains("MAPE"), qPrintable(finished));

        const auto list = runCli({"runs", "list", "--db", db});
        QCOMPARE(list.code, 0);
        const QString row = list.out.split('\n').value(1);
        QVERIFY2(row.contains(QString::number(rmse, 'f', 4)) && !row.contains('%'), qPrintable(row));
        const auto listJson = runCli({"runs", "list", "--db", db, "--json"});
        QCOMPARE(listJson.json().array().first().toObject()["test_rmse"].toDouble(), rmse);
        QVERIFY(!listJson.json().array().first().toObject().contains("test_accuracy"));
        const auto show = runCli({"runs", "show", QString::number(o["run_id"].toInteger()), "--db", db});
        QCOMPARE(show.code, 0);
        QVERIFY2(show.out.contains("best dev RMSE") && show.out.contains("RMSE " + QString::number(rmse, 'f', 4)),
                 qPrintable(show.out));
    }

    // Presets (one per thesis experiment + quick variants), a config file overridden by flags, repeats with
    // different seeds aggregated as mean and sample std, and JSON lines on stderr when it is not a terminal.
    void presetsConfigsAndRepeats()
    {
        auto r = runCli({"presets", "--json"});
        QCOMPARE(r.code, 0);
        QStringList names;
        for (const auto p : QJsonDocument::fromJson(r.out.toUtf8()).array())
            names << p.toObject()["name"].toString();
        for (const char* name : {"table5.3-ssan-rpr", "table5.3-ssan-pe", "table5.3-ssan", "table5.3-ssan2-rpr",
                                 "table5.3-transformer-rpr", "table5.3-transformer-pe", "table5.3-lstm", "table5.3-bilstm",
                                 "table5.3-cnn", "table5.6-essan-sst-fine", "table5.6-essan-sst-binary",
                                 "table5.6-essan-sst-fine-mean", "table6.4-essan64", "table6.4-essan128"}) {
            QVERIFY2(names.contains(name), name);
            QVERIFY2(names.contains(QString(name) + "-quick"), name);
        }
        const auto presets = QJsonDocument::fromJson(r.out.toUtf8()).array();
        for (const auto p : presets)
            if (p.toObject()["name"].toString() == "table6.4-essan64") {
                const auto c = p.toObject()["config"].toObject(); // thesis Table 6.3
                QCOMPARE(c["heads"].toInt(), 8);
                QCOMPARE(c["l2"].toDouble(), 1e-5);
                QCOMPARE(c["learning_rate"].toDouble(), 0.0075);
                QCOMPARE(c["lr_schedule"].toString(), QString("step"));
                QCOMPARE(p.toObject()["repeats"].toInt(), 10);
            }

        QTemporaryDir dir;
        const auto db = dir.filePath("runs.sqlite");
        const auto config = dir.filePath("bow.json");
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"description": "test", "dataset": "synthetic-sentiment", "model": "bow", "position": "none",
                   "steps": 400, "eval_every": 20, "repeats": 3, "seed": 11, "device": "cpu"})");
        f.close();
        r = runCli({"train", "--config", config, "--steps", "40", "--db", db, "--json"}); // the flag wins over the file
        QCOMPARE(r.code, 0);
        const auto o = QJsonDocument::fromJson(r.out.trimmed().toUtf8()).object();
        const auto runs = o["runs"].toArray();
        QCOMPARE(runs.size(), 3);
        QList<double> accuracies;
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(runs[i].toObject()["seed"].toInteger(), 11 + i);
            QCOMPARE(runs[i].toObject()["steps"].toInt(), 40);
            accuracies << runs[i].toObject()["test_accuracy"].toDouble();
        }
        const double mean = (accuracies[0] + accuracies[1] + accuracies[2]) / 3;
        double squares = 0;
        for (double a : accuracies)
            squares += (a - mean) * (a - mean);
        const auto aggregate = o["aggregate"].toObject()["test_accuracy"].toObject();
        QVERIFY(std::abs(aggregate["mean"].toDouble() - mean) < 1e-12);
        QVERIFY(std::abs(aggregate["std"].toDouble() - std::sqrt(squares / 2)) < 1e-12);
        // Not a terminal: every stderr line is a JSON object with an event.
        int events = 0;
        for (const auto& line : r.err.trimmed().split('\n')) {
            const auto event = QJsonDocument::fromJson(line.toUtf8()).object();
            QVERIFY2(event.contains("event"), qPrintable(line));
            events += event["event"].toString() == "finished";
        }
        QCOMPARE(events, 3);

        f.open(QIODevice::WriteOnly);
        f.write(R"({"dataset": "synthetic-sentiment", "model": "bow", "position": "none", "optimiser": "sgd"})");
        f.close();
        r = runCli({"train", "--config", config, "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(config + ": unknown key 'optimiser'"), qPrintable(r.err));
        r = runCli({"train", "--preset", "table9.9", "--db", db});
        QCOMPARE(r.code, 2);
        // The error names every known preset, in order.
        QVERIFY2(r.err.contains("unknown preset 'table9.9' (known: repro-sml2010-attn-rnn128, ") && r.err.contains(" repro-sst-fine-lstm, ")
                     && r.err.contains("table5.3-bilstm, "),
                 qPrintable(r.err));

        // The data settings of a preset (a lesson's order-dependent sentences) and of flags are stored with
        // the run, so `runs show` says how the data was made and the run can be made again.
        r = runCli({"train", "--preset", "teach-position-none", "--steps", "5", "--eval-every", "5", "--distance", "3",
                    "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const qint64 id = QJsonDocument::fromJson(r.out.trimmed().toUtf8()).object()["run_id"].toInteger();
        r = runCli({"runs", "show", QString::number(id), "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        const auto shown = QJsonDocument::fromJson(r.out.toUtf8()).object()["runs"].toArray()[0].toObject()["config"].toObject();
        QCOMPARE(shown["order_dependent"].toBool(), true);
        QCOMPARE(shown["distance"].toInt(), 3);
        r = runCli({"presets", "--lessons", "--json"});
        QCOMPARE(r.code, 0);
        QStringList lessons;
        for (const auto l : QJsonDocument::fromJson(r.out.toUtf8()).array())
            lessons << l.toObject()["id"].toString();
        QCOMPARE(lessons,
                 (QStringList {"san-vs-rnn",
                               "why-position-matters",
                               "long-range",
                               "which-driver-and-lag",
                               "is-attention-an-explanation",
                               "2018-vs-pretrained",
                               "learning-to-align",
                               "dot-general-concat",
                               "which-head-aligns",
                               "right-answer-odd-alignment",
                               "from-bigram-to-gpt",
                               "induction-heads",
                               "why-divide-by-sqrt-dk",
                               "temperature-and-top-p",
                               "why-gates",
                               "what-residuals-and-layernorm-buy",
                               "which-side-needs-self-attention",
                               "what-a-real-llm-attends-to",
                               "induction-heads-in-a-real-model",
                               "the-logit-lens",
                               "what-the-forget-gate-holds"}));
        QJsonObject lens;
        for (const auto l : QJsonDocument::fromJson(r.out.toUtf8()).array())
            if (l.toObject()["id"].toString() == QStringLiteral("the-logit-lens"))
                lens = l.toObject();
        QCOMPARE(lens["explore"].toObject()["view"].toString(), QStringLiteral("lens"));
        QVERIFY(lens["presets"].toArray().isEmpty());
        // SAN vs RNN on real data uses the presets RESULTS.md measured, and they say what they reached.
        const auto sanVsRnn = QJsonDocument::fromJson(r.out.toUtf8()).array()[0].toObject()["real_data"].toObject();
        QCOMPARE(sanVsRnn["presets"].toArray().toVariantList(), (QVariantList{"repro-sst-fine-ssan-rpr", "repro-sst-fine-lstm"}));
        for (const auto p : presets)
            if (p.toObject()["name"].toString() == "repro-sst-fine-ssan-rpr") {
                const auto expected = p.toObject()["expected"].toObject();
                QCOMPARE(expected["mean"].toDouble(), 43.5);
                QCOMPARE(expected["runs"].toInt(), 3);
                QCOMPARE(expected["text"].toString(), QString::fromUtf8("43.5 \u00b1 0.6% test accuracy (3 runs)"));
            } else if (p.toObject()["name"].toString().startsWith("table")) {
                QVERIFY(!p.toObject().contains("expected")); // only what was measured says what it reached
            }
    }

    // a refused setting is named as the user gave it. Every flag of train that can be refused, with
    // a value that is: stderr's first line names the flag, not the configuration key the engine checks.
    void refusedFlagsAreNamedAsTyped_data()
    {
        QTest::addColumn<QStringList>("args");
        const QList<QStringList> rows = {
            {"--lr", "nan"}, {"--d-model", "0"}, {"--embedding-dim", "-1"}, {"--layers", "0"}, {"--rpr-clip", "0"},
            {"--ff-hidden", "0", "--model", "lstm"}, {"--dropout-keep", "1.5"}, {"--dropout-points", "everywhere"},
            {"--dropout-input-keep", "2"}, {"--dropout-hidden-keep", "2"}, {"--dropout-output-keep", "2"},
            {"--heads", "7"}, {"--ffn-hidden", "-1", "--model", "transformer"}, {"--filters", "0", "--model", "cnn"},
            {"--max-length", "0"}, {"--activation", "tanh"}, {"--pooling", "last"}, {"--optimizer", "rmsprop"},
            {"--momentum", "1.5", "--optimizer", "sgd"}, {"--l2", "-1"}, {"--weight-decay", "-1"}, {"--lr-schedule", "cyclic"},
            {"--warmup-steps", "-1"}, {"--clip-norm", "-1"}, {"--epochs", "-1"}, {"--patience", "-1"},
            {"--batch-size", "0"}, {"--sampling", "bootstrap"}, {"--steps", "0"}, {"--eval-every", "0"}, {"--log-every", "0"},
            {"--device", "gpu"}, {"--threads", "-1"}, {"--oov-range", "-1"}, {"--tokenizer", "nltk"},
            {"--distance", "-1"}, {"--tf32", "--device", "cpu"},
        };
        for (const auto& row : rows)
            QTest::newRow(qPrintable(row.join(' '))) << row;
    }
    void refusedFlagsAreNamedAsTyped()
    {
        QFETCH(QStringList, args);
        const QString db = QDir::temp().filePath("never-written-flags.sqlite");
        const auto r = runCli(QStringList{"train", "--steps", "5", "--db", db} + args);
        QCOMPARE(r.code, 2);
        const QString first = r.err.trimmed().split('\n').first();
        QVERIFY2(first.startsWith("attnlab-cli: " + args.first() + ": "), qPrintable(first));
        QVERIFY(!QFile::exists(db));
        // The same setting in a JSON config is named by its key there.
        if (args.first() == "--lr") {
            QTemporaryDir dir;
            QFile config(dir.filePath("bad.json"));
            QVERIFY(config.open(QIODevice::WriteOnly));
            config.write(R"({"dataset": "synthetic-sentiment", "model": "ssan", "position": "rpr", "learning_rate": -1})");
            config.close();
            const auto j = runCli({"train", "--config", config.fileName(), "--db", db});
            QCOMPARE(j.code, 2);
            QVERIFY2(j.err.startsWith("attnlab-cli: learning_rate: "), qPrintable(j.err));
        }
    }

    // The defaults a new user meets: train and describe with nothing named take the built-in data, SSAN and RPR;
    // a model that takes no position technique gets none; a time series gets ESSAN.
    void modelsBringTheirDefaults()
    {
        const auto lstm = runCli({"describe", "--model", "lstm", "--json"});
        QCOMPARE(lstm.code, 0);
        QCOMPARE(lstm.lastJson()["position"].toString(), QString("none"));
        QCOMPARE(lstm.lastJson()["dataset"].toString(), QString("synthetic-sentiment"));
        const auto bare = runCli({"describe", "--json"});
        QCOMPARE(bare.code, 0);
        QCOMPARE(bare.lastJson()["model"].toString(), QString("ssan"));
        QCOMPARE(bare.lastJson()["position"].toString(), QString("rpr"));
        QTemporaryDir dir;
        const auto trained = runCli({"train", "--model", "lstm", "--steps", "5", "--no-checkpoint", "--json", "--db",
                                     dir.filePath("runs.sqlite")});
        QVERIFY2(trained.code == 0, qPrintable(trained.err));
        const auto shown = runCli({"runs", "show", "1", "--json", "--db", dir.filePath("runs.sqlite")});
        QVERIFY2(shown.out.contains("\"position\":\"none\""), qPrintable(shown.out.left(400)));
        // A preset's model changed on the command line drops the position the new model does not take.
        const auto preset = runCli({"train", "--preset", "teach-long-range-ssan-rpr", "--model", "cnn", "--steps", "3",
                                    "--no-checkpoint", "--db", dir.filePath("runs.sqlite")});
        QVERIFY2(preset.code == 0, qPrintable(preset.err));
        QVERIFY(runCli({"--help"}).out.contains("--model ssan (essan for a time series)"));
    }

    // --help and --version everywhere; a usage error is one line naming the setting plus a hint, not the
    // whole usage; a learning rate of nan is named as the learning rate (it was reported as weight decay).
    void helpVersionAndShortErrors()
    {
        const auto version = runCli({"--version"});
        QCOMPARE(version.code, 0);
        QVERIFY2(version.out.startsWith("attnlab-cli 0.2.0 (git ") && version.out.contains("LibTorch"), qPrintable(version.out));
        QCOMPARE(runCli({"train", "--version"}).out, version.out);
        const auto help = runCli({"train", "--help"});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.startsWith("usage: attnlab-cli") && help.out.contains("--checkpoint-dir"));
        QCOMPARE(runCli({"runs", "--help"}).code, 0);

        const auto nan = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr",
                                 "--lr", "nan", "--db", QDir::temp().filePath("never-written.sqlite")});
        QCOMPARE(nan.code, 2);
        const QStringList lines = nan.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[0].startsWith("attnlab-cli: --lr:"), qPrintable(lines[0]));
        QVERIFY2(lines[1].contains("attnlab-cli --help"), qPrintable(lines[1]));
        QVERIFY(!QFile::exists(QDir::temp().filePath("never-written.sqlite")));
        const auto inf = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr",
                                 "--lr", "inf", "--db", QDir::temp().filePath("never-written.sqlite")});
        QCOMPARE(inf.code, 2);
        QVERIFY2(inf.err.startsWith("attnlab-cli: --lr:"), qPrintable(inf.err));
    }

    // Every flag train reads for the model and the data is in the help (the list of them is ConfigFlags').
    void everyConfigFlagIsInTheHelp()
    {
        const CliResult train = runCli({"train", "--help"});
        const QString help = runCli({"--help"}).out + train.out + train.err;
        QFile source(QStringLiteral(ATTNLAB_SOURCE_DIR "/cli/ConfigFlags.cpp"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(source.readAll());
        QRegularExpression flag(QStringLiteral("\"(--[a-z0-9-]+)\""));
        int flags = 0;
        for (auto it = flag.globalMatch(text); it.hasNext(); ++flags) {
            const QString name = it.next().captured(1);
            // The whole flag: --window is not found in --attention-window's text.
            QVERIFY2(
                help.contains(QRegularExpression(QStringLiteral("(?<![a-z0-9-])") + QRegularExpression::escape(name) +
                                                 QStringLiteral("(?![a-z0-9-])"))),
                qPrintable(name + " is not in attnlab-cli --help or train --help"));
        }
        QVERIFY(flags > 100);
    }

    void badInputIsRefusedClearly()
    {
        auto r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--steps", "abc"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--steps expects an integer, got 'abc'"));
        r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "gpt-5", "--position", "rpr"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown model 'gpt-5'"));
        r = runCli({"describe", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--bogus", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown option '--bogus'"));
        r = runCli({"describe", "--dataset", "synthetic-sentiment", "--model", "lstm", "--position", "rpr"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("does not apply"));
        r = runCli({"frobnicate"});
        QCOMPARE(r.code, 2);
        r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position", "rpr", "--rpr-clip", "0",
                 "--steps", "5", "--db", QDir::temp().filePath("attnlab-test-never-created.sqlite")});
        QCOMPARE(r.code, 2); // refused before training, with the setting named, and nothing stored
        QVERIFY(r.err.contains("--rpr-clip: the clipping distance k must be at least 1"));
        QVERIFY(!QFile::exists(QDir::temp().filePath("attnlab-test-never-created.sqlite")));
        // A model of another task: refused naming both kinds before any run row exists (it once stored a failed
        // run, "no implementation for 'gpt'"), and an existing store keeps exactly what it had.
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        r = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "gpt", "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(
                     "'gpt' is a language-model model; dataset 'synthetic-sentiment' is a classification dataset"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("models for it: ssan, essan"), qPrintable(r.err));
        QVERIFY(!QFile::exists(db));
        QCOMPARE(
            runCli({"train", "--dataset", "synthetic-sentiment", "--model", "bow", "--steps", "2", "--db", db}).code,
            0);
        r = runCli({"train", "--dataset", "synthetic-lag", "--model", "lstm", "--db", db});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(
                     "'lstm' is a classification model; dataset 'synthetic-lag' is a time-series regression dataset"),
                 qPrintable(r.err));
        const CliResult listed = runCli({"runs", "list", "--db", db, "--json"});
        QCOMPARE(listed.code, 0);
        QCOMPARE(listed.out.count(QStringLiteral("\"uuid\"")), 1); // the bow run only
    }

    // Messy files from the command line (the hardening issue): a missing-value policy and its note, inf named
    // with file, line and column, stray quotes in a TSV, and one enormous line truncated to --max-length.
    void messyFilesFromTheCommandLine()
    {
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        QByteArray series = "t,x,y\n"; // y missing at t = 0 (line 2) and 4; x at 3 and 10: 4 cells in 4 rows
        for (int t = 0; t < 20; ++t)
            series += QByteArray::number(t) + "," + (t == 3 ? "NA" : t == 10 ? "" : QByteArray::number(10 * t)) + "," +
                      (t == 0 ? "N/A" : t == 4 ? "?" : QByteArray::number(t)) + "\n";
        write("s.csv", series);
        const QStringList stats = {"stats", "csv-series", "--file", dir.filePath("s.csv"), "--target-column", "y", "--window", "2"};
        auto r = runCli(stats);
        QCOMPARE(r.code, 1); // the default policy is error
        QVERIFY2(r.err.contains(dir.filePath("s.csv") + ":2: column 'y': missing value 'N/A'"), qPrintable(r.err));
        r = runCli(stats + QStringList{"--missing", "interpolate"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains(dir.filePath("s.csv") + ": 4 missing cells in 4 rows filled by linear interpolation"), qPrintable(r.err));
        r = runCli(stats + QStringList{"--missing", "drop", "--json"});
        QCOMPARE(r.code, 0);
        const auto missing = r.lastJson()["missing_values"].toObject();
        QCOMPARE(missing["cells"].toInt(), 4);
        QCOMPARE(missing["rows"].toInt(), 4);
        QCOMPARE(missing["policy"].toString(), QString("drop"));
        const auto splits = r.lastJson()["splits"].toObject();
        QCOMPARE(splits["train"].toObject()["examples"].toInt() + splits["dev"].toObject()["examples"].toInt() +
                     splits["test"].toObject()["examples"].toInt(), 16);
        r = runCli(stats + QStringList{"--missing", "mean"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--missing expects error, drop, ffill, interpolate, got 'mean'"), qPrintable(r.err));

        series.replace("\n3,NA,3\n", "\n3,30,inf\n");
        write("s.csv", series);
        r = runCli(stats + QStringList{"--missing", "ffill"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(dir.filePath("s.csv") + ":5: column 'y': not a finite number 'inf'"), qPrintable(r.err));

        QByteArray tsv; // a stray quote at the start of every fourth line
        for (int i = 0; i < 48; ++i)
            tsv += QByteArray(i % 4 == 0 ? "\"" : "") + "review " + QByteArray::number(i) + (i % 2 ? " good\tpos\n" : " bad\tneg\n");
        write("reviews.tsv", tsv);
        const QStringList tsvStats = {"stats", "csv-text", "--file", dir.filePath("reviews.tsv"), "--header", "no", "--json"};
        auto examples = [](const CliResult& result) {
            const auto s = result.lastJson()["splits"].toObject();
            return s["train"].toObject()["examples"].toInt() + s["dev"].toObject()["examples"].toInt() +
                   s["test"].toObject()["examples"].toInt();
        };
        r = runCli(tsvStats);
        QCOMPARE(r.code, 0);
        QCOMPARE(examples(r), 48); // quotes are text in a TSV: one row per line
        r = runCli(tsvStats + QStringList{"--quoting", "on"});
        QCOMPARE(r.code, 0);
        QCOMPARE(examples(r), 24);
        QVERIFY2(r.err.contains(dir.filePath("reviews.tsv") + ":1: a quoted field starts here and spans 5 lines"), qPrintable(r.err));

        QByteArray train = "text,label\n";
        for (int i = 0; i < 200000; ++i) train += "w" + QByteArray::number(i % 5000) + " ";
        train += ",pos\n";
        for (int i = 0; i < 30; ++i) train += i % 2 ? "a fine film,pos\n" : "a dull film,neg\n";
        write("train.csv", train);
        write("small.csv", "text,label\nfine,pos\ndull,neg\nfine,pos\ndull,neg\n");
        r = runCli({"train", "--dataset", "csv-text", "--train-file", dir.filePath("train.csv"), "--dev-file",
                    dir.filePath("small.csv"), "--test-file", dir.filePath("small.csv"), "--model", "ssan", "--position", "rpr",
                    "--d-model", "16", "--steps", "5", "--eval-every", "5", "--batch-size", "8", "--max-length", "64",
                    "--device", "cpu", "--db", dir.filePath("runs.sqlite"), "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("1 of 31 training examples truncated to 64 tokens (max_length)"), qPrintable(r.err.left(2000)));
        QCOMPARE(r.lastJson()["status"].toString(), QString("completed"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
