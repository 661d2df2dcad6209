// Language models as a user runs them: train a small GPT and an n-gram on text with attnlab-cli, write with
// `generate`, read its JSON (every attention row a distribution over the context, nothing later), and every bad
// input refused with one line naming the flag or the file, nothing stored.
#include "core/store/RunStore.h"
#include "tests/support/CliProcess.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

using namespace attnlab;

class TestCliLanguageModel : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_, text_;
    int gptRun_ = 0, ngramRun_ = 0;

    std::size_t runCount() const { return RunStore(db_.toStdString()).listRuns().size(); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath("runs.sqlite");
        text_ = dir_.filePath("poem.txt");
        std::ofstream out(text_.toStdString());
        for (int i = 0; i < 40; ++i)
            out << "the cat sat on the mat.\nthe dog lay on the log.\n";
        out.close();
        CliResult r = runCli({"train", "--dataset", "text-file", "--file", text_, "--model", "gpt", "--layers", "2", "--heads", "2",
                              "--d-model", "32", "--context", "24", "--steps", "150", "--eval-every", "75", "--batch-size", "16",
                              "--lr", "0.003", "--sample-tokens", "40", "--threads", "2", "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto o = r.lastJson();
        QCOMPARE(o["status"].toString(), QString("completed"));
        QVERIFY(o["language_model"].toBool());
        gptRun_ = o["run_id"].toInt();
        const double loss = o["test_loss"].toDouble();
        QVERIFY2(loss > 0 && loss < std::log(15.0), qPrintable(QString::number(loss))); // below a uniform guess over its characters
        QVERIFY(std::abs(o["test_bits_per_token"].toDouble() - loss / std::log(2.0)) < 1e-9);
        r = runCli({"train", "--dataset", "text-file", "--file", text_, "--model", "ngram", "--order", "3", "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        o = r.lastJson();
        QCOMPARE(o["steps"].toInt(), 1); // counted in one pass, not trained
        ngramRun_ = o["run_id"].toInt();
        QVERIFY(o["test_loss"].toDouble() < loss + 1.0);
    }

    void writesWithEveryAttentionRow()
    {
        const CliResult r = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the c", "--tokens", "30",
                                    "--seed", "4", "--alternatives", "3", "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto o = r.lastJson();
        QCOMPARE(o["prompt"].toString(), QString("the c"));
        const auto steps = o["steps"].toArray();
        QCOMPARE(steps.size(), 30);
        QCOMPARE(o["tokens"].toArray().size(), 30);
        QString joined;
        for (const auto& t : o["tokens"].toArray())
            joined += t.toString();
        QCOMPARE(o["text"].toString(), joined);
        QVERIFY(o["seconds"].toDouble() > 0.0 && o["seconds"].toDouble() < 60.0); // the writing's own time
        for (int i = 0; i < steps.size(); ++i) {
            const auto step = steps[i].toObject();
            QCOMPARE(step["alternatives"].toArray().size(), 3);
            QVERIFY(step["probability"].toDouble() > 0 && step["probability"].toDouble() <= 1.0);
            const auto rows = step["attention"].toArray();
            QCOMPARE(rows.size(), 4); // 2 layers x 2 heads
            const int context = 5 + i - step["context_start"].toInt(); // the prompt's 5 and the i written so far
            for (const auto& row : rows) {
                QCOMPARE(row.toArray().size(), std::min(context, 24)); // over the context only: nothing later
                double sum = 0;
                for (const auto& w : row.toArray())
                    sum += w.toDouble();
                QVERIFY(std::abs(sum - 1.0) < 1e-4);
            }
        }
        // The same seed writes the same text; greedy is top-k 1.
        const CliResult again = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the c", "--tokens", "30", "--seed", "4", "--db", db_, "--json"});
        QCOMPARE(again.lastJson()["text"].toString(), o["text"].toString());
        const CliResult greedy = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the", "--tokens", "20", "--greedy", "--db", db_, "--json"});
        const CliResult topOne = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the", "--tokens", "20", "--top-k", "1", "--seed", "9", "--db", db_, "--json"});
        QCOMPARE(greedy.lastJson()["text"].toString(), topOne.lastJson()["text"].toString());
        // --samples 3: three texts written together, seeds 4, 5, 6: the first is --seed 4's, the third --seed 6's.
        const CliResult three = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the c", "--tokens", "30", "--seed", "4",
                                        "--samples", "3", "--db", db_, "--json"});
        QVERIFY2(three.code == 0, qPrintable(three.err));
        const auto samples = three.lastJson()["samples"].toArray();
        QCOMPARE(samples.size(), 3);
        QCOMPARE(samples[0].toObject()["text"].toString(), o["text"].toString());
        QCOMPARE(samples[2].toObject()["seed"].toInt(), 6);
        const CliResult sixth = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the c", "--tokens", "30", "--seed", "6", "--db", db_, "--json"});
        QCOMPARE(samples[2].toObject()["text"].toString(), sixth.lastJson()["text"].toString());
        // --beam 3: the three likeliest texts, best first, each its tokens' log-probabilities summed; --beam 1 is greedy.
        const CliResult beams = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the", "--tokens", "20", "--beam", "3", "--db", db_, "--json"});
        QVERIFY2(beams.code == 0, qPrintable(beams.err));
        const auto hypotheses = beams.lastJson()["beams"].toArray();
        QCOMPARE(hypotheses.size(), 3);
        for (int h = 0; h < 3; ++h) {
            const auto one = hypotheses[h].toObject();
            QCOMPARE(one["beam"].toInt(), 3);
            double logP = 0;
            for (const auto& step : one["steps"].toArray())
                logP += std::log(step.toObject()["probability"].toDouble());
            QVERIFY(std::abs(logP - one["log_probability"].toDouble()) < 1e-3);
            if (h > 0)
                QVERIFY(one["log_probability"].toDouble() <= hypotheses[h - 1].toObject()["log_probability"].toDouble());
        }
        const CliResult widthOne = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the", "--tokens", "20", "--beam", "1", "--db", db_, "--json"});
        QCOMPARE(widthOne.lastJson()["beams"].toArray()[0].toObject()["text"].toString(), greedy.lastJson()["text"].toString());
        const CliResult lines = runCli({"generate", "--run", QString::number(gptRun_), "--prompt", "the", "--tokens", "10", "--samples", "2", "--db", db_});
        QVERIFY2(lines.code == 0 && lines.out.count("---------------\n") == 1 && lines.err.contains("2 samples of 10"), qPrintable(lines.err));
        // Text: the prompt and what followed on stdout, how it was written on stderr.
        const CliResult plain = runCli({"generate", "--run", QString::number(ngramRun_), "--prompt", "the", "--tokens", "12", "--db", db_});
        QVERIFY2(plain.code == 0, qPrintable(plain.err));
        QVERIFY(plain.out.startsWith("the"));
        QVERIFY(plain.err.contains("temperature 1.00, seed 1"));
    }

    // explain --steps on the GPT: one head's attention for a query, every quantity, the model's own row beside it.
    void attentionStepByStepFromTheCommandLine()
    {
        const CliResult r = runCli({"explain", "--run", QString::number(gptRun_), "--text", "the cat", "--steps", "--layer", "2",
                                    "--head", "1", "--query", "3", "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto o = r.lastJson();
        QCOMPARE(o["layer"].toInt(), 2);
        QCOMPARE(o["query"].toInt(), 3);
        QCOMPARE(o["tokens"].toArray().size(), 7); // "the cat" as characters
        const auto weights = o["weights"].toArray(), model = o["model_weights"].toArray(), masked = o["masked"].toArray();
        double sum = 0;
        for (int j = 0; j < weights.size(); ++j) {
            QVERIFY(std::abs(weights[j].toDouble() - model[j].toDouble()) < 1e-6);
            QCOMPARE(masked[j].toBool(), j > 3); // causal: nothing after the query
            sum += weights[j].toDouble();
        }
        QVERIFY(std::abs(sum - 1.0) < 1e-5);
        QCOMPARE(o["q"].toArray().size(), 16); // d_model 32 / 2 heads
        QVERIFY(std::abs(o["divisor"].toDouble() - 4.0) < 1e-12);
        const CliResult text = runCli({"explain", "--run", QString::number(gptRun_), "--text", "the cat", "--steps", "--query", "2", "--db", db_});
        QVERIFY2(text.code == 0 && text.out.contains("weight") && text.out.contains("output (sum of weight x value)"), qPrintable(text.out + text.err));
        const CliResult bad = runCli({"explain", "--run", QString::number(gptRun_), "--text", "the cat", "--steps", "--layer", "9", "--db", db_});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--layer: the model has 2 self-attention layers"), qPrintable(bad.err));
        const CliResult noAttention = runCli({"explain", "--run", QString::number(ngramRun_), "--text", "the", "--steps", "--db", db_});
        QCOMPARE(noAttention.code, 2);
        QVERIFY2(noAttention.err.contains("has no self-attention layer"), qPrintable(noAttention.err));
    }

    // A char-GRU's gates over a typed text, one column a character; the n-gram has none.
    void gatesOfACharRnn()
    {
        CliResult r =
            runCli({"train", "--dataset",    "text-file", "--file",          text_, "--model",   "char-rnn", "--cell",
                    "gru",   "--layers",     "2",         "--d-model",       "8",   "--context", "16",       "--steps",
                    "10",    "--eval-every", "10",        "--sample-tokens", "0",   "--db",      db_,        "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString run = QString::number(r.lastJson()["run_id"].toInt());
        r = runCli({"explain", "--run", run, "--text", "the cat", "--gates", "--json", "--db", db_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto o = r.lastJson();
        QCOMPARE(o["cell"].toString(), QStringLiteral("gru"));
        QCOMPARE(o["tokens"].toArray().size(), 7);
        QCOMPARE(o["layers"].toArray().size(), 2);
        QCOMPARE(o["layers"].toArray()[1].toObject()["mean"].toObject()["update"].toArray().size(), 7);
        r = runCli({"explain", "--run", run, "--text", "the cat", "--gates", "--steps", "--db", db_});
        QCOMPARE(r.code, 2);
        r = runCli({"explain", "--run", QString::number(ngramRun_), "--text", "the cat", "--gates", "--db", db_});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("has no gates"), qPrintable(r.err));
    }

    void badInputIsRefusedByName()
    {
        const std::size_t before = runCount();
        const QString run = QString::number(gptRun_);
        for (const auto& [args, words] : std::vector<std::pair<QStringList, QString>>{
                 {{"--temperature", "0"}, "--temperature: must be a positive number"},
                 {{"--temperature", "nan"}, "--temperature"},
                 {{"--temperature", "inf"}, "--temperature: must be a positive number"},
                 {{"--top-p", "0"}, "--top-p: must be in (0, 1]"},
                 {{"--top-p", "1.5"}, "--top-p: must be in (0, 1]"},
                 {{"--top-k", "-2"}, "--top-k: must be 0"},
                 {{"--tokens", "20000"}, "--tokens: must be 1 to 10000"},
                 {{"--samples", "0"}, "--samples expects 1 to 64 texts, got 0"},
                 {{"--samples", "65"}, "--samples expects 1 to 64 texts, got 65"},
                 {{"--beam", "0"}, "--beam expects 1 to 64 hypotheses, got 0"},
                 {{"--beam", "3", "--temperature", "0.5"}, "--beam searches for the likeliest texts and draws nothing: leave out --temperature"},
                 {{"--beam", "3", "--samples", "2"}, "--beam searches for the likeliest texts and draws nothing: leave out --samples"},
                 {{"--prompt", "the zebra"}, "--prompt: character 'z' (token 5) is not in the model's"},
                 {{"--prompt", ""}, "--prompt is empty"}}) {
            const CliResult r = runCli(QStringList{"generate", "--run", run, "--db", db_} + args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.startsWith("attnlab-cli: " + words), qPrintable(r.err));
        }
        // generate on a run that is not a language model: a classifier's checkpoint.
        const CliResult classifier = runCli({"train", "--steps", "5", "--eval-every", "5", "--db", db_, "--json"});
        QVERIFY2(classifier.code == 0, qPrintable(classifier.err));
        const CliResult wrong = runCli({"generate", "--run", QString::number(classifier.lastJson()["run_id"].toInt()), "--db", db_});
        QCOMPARE(wrong.code, 1);
        QVERIFY2(wrong.err.contains("not a language model"), qPrintable(wrong.err));
        // Text files a language model cannot read: named, nothing stored.
        const QString empty = dir_.filePath("empty.txt"), binary = dir_.filePath("image.png"), latin1 = dir_.filePath("latin1.txt");
        std::ofstream(empty.toStdString()) << "";
        std::ofstream(binary.toStdString(), std::ios::binary) << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
        std::ofstream(latin1.toStdString(), std::ios::binary) << "one\ntwo\nna\xefve\n";
        for (const auto& [file, words] : std::vector<std::pair<QString, QString>>{
                 {empty, ": is empty"}, {binary, ":3: has a NUL byte"}, {latin1, ":3: is not valid UTF-8"}}) {
            const CliResult r = runCli({"train", "--dataset", "text-file", "--file", file, "--db", db_});
            QVERIFY2(r.code != 0, qPrintable(file));
            QVERIFY2(r.err.contains(file + words), qPrintable(r.err)); // the file and the line where there is one
        }
        const CliResult unit = runCli({"train", "--dataset", "text-file", "--file", text_, "--unit", "bytes", "--db", db_});
        QCOMPARE(unit.code, 2);
        QVERIFY2(unit.err.contains("--unit expects characters, words or pieces"), qPrintable(unit.err));
        QCOMPARE(runCount(), before + 1); // the classifier only
    }
};

QTEST_GUILESS_MAIN(TestCliLanguageModel)
#include "test_cli_language_model.moc"
