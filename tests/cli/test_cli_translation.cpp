// Translation as a user runs it: train an encoder-decoder on a built-in task, translate a typed
// sentence and a file with the stored run, and get back the run's own test BLEU from the file's translations.
#include "core/config/DatasetOptions.h"
#include "core/data/DatasetCatalog.h"
#include "core/results/BleuScore.h"
#include "core/store/RunStore.h"
#include "tests/support/AnimalPairs.h"
#include "tests/support/CliProcess.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

using namespace attnlab;

class TestCliTranslation : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_;
    int runId_ = 0;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        db_ = dir_.filePath("runs.sqlite");
        // Bahdanau attention on the reversal task, small and short: enough to align, not to be perfect.
        const CliResult r = runCli({"train", "--dataset", "synthetic-reverse", "--model", "bahdanau", "--steps", "300",
                                    "--eval-every", "150", "--d-model", "32", "--batch-size", "32", "--lr", "0.005",
                                    "--db", db_, "--device", "cpu", "--threads", "2", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto o = r.lastJson();
        QCOMPARE(o["status"].toString(), QString("completed"));
        QVERIFY(o["translation"].toBool());
        runId_ = o["run_id"].toInt();
        const double bleu = o["test_bleu"].toDouble();
        QVERIFY2(bleu > 5.0 && bleu <= 100.0, qPrintable(QString::number(bleu)));
        QCOMPARE(o["test_accuracy"].toDouble(), bleu / 100.0); // what lists rank by
        QVERIFY(o["test_exact_match"].toDouble() >= 0.0 && o["test_exact_match"].toDouble() <= 1.0);
        QVERIFY(o["test_aer"].toDouble() >= 0.0 && o["test_aer"].toDouble() <= 1.0);
        QVERIFY(o["bleu_signature"].toString().startsWith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2."));
        QVERIFY(o["test_perplexity"].toDouble() >= 1.0);
    }

    void translatesATypedSentenceWithItsAlignment()
    {
        const CliResult r = runCli({"translate", "--run", QString::number(runId_), "--text", "ant bee cat dog", "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto o = r.lastJson();
        QCOMPARE(o["source_tokens"].toArray().size(), 4);
        const auto target = o["target_tokens"].toArray();
        QVERIFY(!o["translation"].toString().isEmpty());
        QCOMPARE(o["alignment_rows"].toArray().size(), target.size() + 1); // and <eos>
        QCOMPARE(o["probabilities"].toArray().size(), target.size() + 1);
        const auto rows = o["attention"].toArray();
        QCOMPARE(rows.size(), target.size() + 1);
        for (const auto& row : rows) { // every row a distribution over the four source words
            QCOMPARE(row.toArray().size(), 4);
            double sum = 0.0;
            for (const auto& w : row.toArray())
                sum += w.toDouble();
            QVERIFY(std::abs(sum - 1.0) < 1e-4);
        }
        // The plain text: the translation first, then what decoded it and the alignment table.
        const CliResult text = runCli({"translate", "--run", QString::number(runId_), "--text", "ant bee cat dog", "--db", db_});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QCOMPARE(text.out.split('\n').first(), o["translation"].toString());
        QVERIFY(text.out.contains("alignment (cross-attention"));
    }

    void beamSearchKeepsEveryHypothesisWithItsAttention()
    {
        const CliResult r = runCli({"translate", "--run", QString::number(runId_), "--text", "cow dog eel", "--beam", "4", "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto o = r.lastJson();
        QCOMPARE(o["beam_size"].toInt(), 4);
        const auto hypotheses = o["hypotheses"].toArray();
        QVERIFY(!hypotheses.isEmpty() && hypotheses.size() <= 4);
        QCOMPARE(hypotheses.first().toObject()["translation"].toString(), o["translation"].toString());
        double previous = 1e300;
        for (const auto& h : hypotheses) {
            const auto object = h.toObject();
            QVERIFY(object["score"].toDouble() <= previous); // best first
            previous = object["score"].toDouble();
            const auto maps = object["cross_attention"].toArray();
            QCOMPARE(maps.size(), 1); // one layer, one head
            QCOMPARE(maps.first().toObject()["weights"].toArray().size(), object["tokens"].toArray().size() + 1);
            QCOMPARE(object["parents"].toArray().size(), object["tokens"].toArray().size() + 1);
        }
    }

    void eachStepsAlternativesAreWhatTheDecoderChoseFrom()
    {
        const CliResult r = runCli({"translate", "--run", QString::number(runId_), "--text", "ant bee cat dog", "--alternatives", "3",
                                    "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto o = r.lastJson();
        const auto target = o["target_tokens"].toArray();
        const auto probabilities = o["probabilities"].toArray();
        const auto rows = o["alternatives"].toArray();
        QCOMPARE(rows.size(), target.size() + 1);
        for (int t = 0; t < rows.size(); ++t) {
            const auto row = rows[t].toArray();
            QCOMPARE(row.size(), 3);
            for (int k = 1; k < row.size(); ++k) // best first
                QVERIFY(row[k].toObject()["probability"].toDouble() <= row[k - 1].toObject()["probability"].toDouble());
            // Greedy decoding kept the likeliest token at every step, with the probability it reported for it.
            const QString kept = t < target.size() ? target[t].toString() : QStringLiteral("<eos>");
            QCOMPARE(row[0].toObject()["token"].toString(), kept);
            QVERIFY(std::abs(row[0].toObject()["probability"].toDouble() - probabilities[t].toDouble()) < 1e-5);
        }
    }

    void forcingATargetScoresEachWordAndMeasuresTheGoldAlignment()
    {
        // The model's own translation forced back gives the probabilities and alignment decoding gave.
        const CliResult own = runCli({"translate", "--run", QString::number(runId_), "--text", "ant bee cat dog", "--db", db_, "--json"});
        QVERIFY2(own.code == 0, qPrintable(own.err));
        const auto decoded = own.lastJson();
        const CliResult same = runCli({"translate", "--run", QString::number(runId_), "--text", "ant bee cat dog", "--force",
                                       decoded["translation"].toString(), "--db", db_, "--json"});
        QVERIFY2(same.code == 0, qPrintable(same.err));
        const auto forced = same.lastJson();
        QVERIFY(forced["forced"].toBool());
        QCOMPARE(forced["target_tokens"].toArray(), decoded["target_tokens"].toArray());
        const auto a = decoded["probabilities"].toArray(), b = forced["probabilities"].toArray();
        QCOMPARE(a.size(), b.size());
        for (int i = 0; i < a.size(); ++i)
            QVERIFY(std::abs(a[i].toDouble() - b[i].toDouble()) < 1e-5);
        const auto ra = decoded["attention"].toArray(), rb = forced["attention"].toArray();
        QCOMPARE(ra.size(), rb.size());
        for (int r = 0; r < ra.size(); ++r)
            for (int c = 0; c < 4; ++c)
                QVERIFY(std::abs(ra[r].toArray()[c].toDouble() - rb[r].toArray()[c].toDouble()) < 1e-5);

        // The right answer forced: its gold alignment is the anti-diagonal, and the AER is the attention's argmax against it.
        const CliResult right = runCli({"translate", "--run", QString::number(runId_), "--text", "ant bee cat dog", "--force",
                                        "dog cat bee ant", "--db", db_, "--json"});
        QVERIFY2(right.code == 0, qPrintable(right.err));
        const auto o = right.lastJson();
        QCOMPARE(o["reference"].toArray(), QJsonArray({"dog", "cat", "bee", "ant"}));
        QCOMPARE(o["probabilities"].toArray().size(), 5);
        const auto gold = o["gold_alignment"].toArray();
        QCOMPARE(gold.size(), 4);
        for (int t = 0; t < 4; ++t)
            QCOMPARE(gold[t].toArray(), QJsonArray({3 - t, t}));
        const auto attention = o["attention"].toArray();
        int hits = 0;
        for (int t = 0; t < 4; ++t) {
            const auto row = attention[t].toArray();
            int best = 0;
            for (int s = 1; s < 4; ++s)
                if (row[s].toDouble() > row[best].toDouble())
                    best = s;
            hits += best == 3 - t;
        }
        QVERIFY(std::abs(o["alignment_error_rate"].toDouble() - (1.0 - 2.0 * hits / 8.0)) < 1e-9);
        // One layer, one head: the head's own AER is the alignment's.
        QCOMPARE(o["head_alignment_error_rates"].toArray().size(), 1);
        QCOMPARE(o["head_alignment_error_rates"].toArray().first().toDouble(), o["alignment_error_rate"].toDouble());
        const CliResult text = runCli({"translate", "--run", QString::number(runId_), "--text", "ant bee cat dog", "--force",
                                       "dog cat bee ant", "--db", db_});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY(text.out.contains("forced target"));
        QVERIFY(text.out.contains("right answer: dog cat bee ant"));

        // Forcing needs a sentence and words.
        QCOMPARE(runCli({"translate", "--run", QString::number(runId_), "--file", "x", "--force", "a", "--db", db_}).code, 2);
        QCOMPARE(runCli({"translate", "--run", QString::number(runId_), "--text", "ant", "--force", "  ", "--db", db_}).code, 2);
    }

    void aFileOfTheTestSplitGivesBackTheStoredBleu()
    {
        DatasetOptions options; // the run's: the synthetic task's defaults
        const auto data = DatasetCatalog::loadTranslation("synthetic-reverse", options);
        const QString file = dir_.filePath("test.src");
        {
            std::ofstream out(file.toStdString());
            for (const auto& p : data.test)
                out << p.sourceText << "\n";
        }
        const CliResult r = runCli({"translate", "--run", QString::number(runId_), "--file", file, "--db", db_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.err.contains("translated 500 sentences"));
        std::vector<std::string> hypotheses, references;
        for (const auto& line : r.out.split('\n', Qt::KeepEmptyParts).mid(0, static_cast<int>(data.test.size())))
            hypotheses.push_back(line.toStdString());
        for (const auto& p : data.test)
            references.push_back(p.targetText);
        QCOMPARE(hypotheses.size(), references.size());
        const double bleu = BleuScore().corpusScore(hypotheses, references).score;
        const CliResult show = runCli({"runs", "show", QString::number(runId_), "--db", db_, "--json"});
        QVERIFY2(show.code == 0, qPrintable(show.err));
        const double stored = show.lastJson()["runs"].toArray().first().toObject()["summary"].toObject()["test_bleu"].toDouble();
        QVERIFY(stored > 0.0);
        QVERIFY2(std::abs(bleu - stored) < 1e-6, qPrintable(QString("%1 vs %2").arg(bleu).arg(stored)));
    }

    // runs bleu-by-length: the buckets' sentences add up to the split, each bucket's BLEU is its sentences' corpus BLEU
    // (the translations of a file of them, scored here), and "all" is the run's stored test BLEU and exact match.
    void bleuBySourceLengthAddsUpToTheStoredBleu()
    {
        const CliResult r = runCli({"runs", "bleu-by-length", QString::number(runId_), "--buckets", "1-12,13-16,17-", "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto rows = r.lastJson()["runs"].toArray().first().toObject()["rows"].toArray();
        DatasetOptions options;
        const auto data = DatasetCatalog::loadTranslation("synthetic-reverse", options);
        int sentences = 0;
        for (const auto row : rows)
            if (row.toObject()["source_words"].toString() != "all")
                sentences += row.toObject()["sentences"].toInt();
        QCOMPARE(sentences, static_cast<int>(data.test.size()));
        const auto all = rows.last().toObject();
        QCOMPARE(all["source_words"].toString(), QString("all"));
        const auto summary = runCli({"runs", "show", QString::number(runId_), "--db", db_, "--json"})
                                 .lastJson()["runs"].toArray().first().toObject()["summary"].toObject();
        QVERIFY2(std::abs(all["bleu"].toDouble() - summary["test_bleu"].toDouble()) < 1e-6,
                 qPrintable(QString("%1 vs %2").arg(all["bleu"].toDouble()).arg(summary["test_bleu"].toDouble())));
        QVERIFY(std::abs(all["exact_match"].toDouble() - summary["test_exact_match"].toDouble()) < 1e-9);
        // The 13-16 bucket by hand: its sentences translated from a file, scored as one corpus.
        QJsonObject middle;
        for (const auto row : rows)
            if (row.toObject()["source_words"].toString() == "13-16")
                middle = row.toObject();
        QVERIFY(middle["sentences"].toInt() > 0);
        const QString file = dir_.filePath("middle.src");
        std::vector<std::string> references;
        {
            std::ofstream out(file.toStdString());
            for (const auto& p : data.test)
                if (p.source.size() >= 13 && p.source.size() <= 16) {
                    out << p.sourceText << "\n";
                    references.push_back(p.targetText);
                }
        }
        const CliResult t = runCli({"translate", "--run", QString::number(runId_), "--file", file, "--db", db_});
        std::vector<std::string> hypotheses;
        for (const auto& line : t.out.split('\n').mid(0, static_cast<int>(references.size())))
            hypotheses.push_back(line.toStdString());
        QCOMPARE(middle["sentences"].toInt(), static_cast<int>(references.size()));
        QVERIFY(std::abs(BleuScore().corpusScore(hypotheses, references).score - middle["bleu"].toDouble()) < 1e-6);
        // Training stored the same figures for its default buckets (test bleu_by_length.<shortest>, for Compare).
        const auto defaults = runCli({"runs", "bleu-by-length", QString::number(runId_), "--db", db_, "--json"})
                                  .lastJson()["runs"].toArray().first().toObject()["rows"].toArray();
        const auto stored = RunStore(db_.toStdString()).metrics(runId_);
        int matched = 0;
        for (const auto row : defaults) {
            const auto label = row.toObject()["source_words"].toString();
            if (label == "all")
                continue;
            const std::string name = "bleu_by_length." + label.section('-', 0, 0).section('+', 0, 0).toStdString();
            for (const auto& m : stored)
                if (m.split == "test" && m.name == name) {
                    QVERIFY2(std::abs(m.value - row.toObject()["bleu"].toDouble()) < 1e-6, name.c_str());
                    ++matched;
                }
        }
        QVERIFY(matched >= 2);
        QCOMPARE(matched, defaults.size() - 1);
        // Refused by name: buckets out of order, a classifier's run.
        const CliResult badBuckets = runCli({"runs", "bleu-by-length", QString::number(runId_), "--buckets", "6-10,1-5", "--db", db_});
        QCOMPARE(badBuckets.code, 2);
        QVERIFY2(badBuckets.err.contains("--buckets: '1-5' overlaps or comes before 6-10"), qPrintable(badBuckets.err));
        const CliResult text = runCli({"runs", "bleu-by-length", QString::number(runId_), "--buckets", "a-3", "--db", db_});
        QCOMPARE(text.code, 2);
        QVERIFY(text.err.contains("--buckets: 'a-3' is not a range"));
    }

    void describeCountsWhatTrainingBuilds()
    {
        // describe builds the model of these settings on the dataset's vocabularies: its count is the trained run's.
        const CliResult d = runCli({"describe", "--dataset", "synthetic-reverse", "--model", "bahdanau", "--d-model", "32", "--json"});
        QVERIFY2(d.code == 0, qPrintable(d.err));
        const CliResult show = runCli({"runs", "show", QString::number(runId_), "--db", db_, "--json"});
        QVERIFY2(show.code == 0, qPrintable(show.err));
        const auto stored = QJsonDocument::fromJson(show.out.toUtf8()).object()["runs"].toArray().first().toObject()["parameters"].toInt();
        QVERIFY(stored > 0);
        QCOMPARE(d.lastJson()["params"].toInt(), stored);
        QCOMPARE(d.lastJson()["source_vocabulary"].toInt(), 27); // 25 words, <pad>, <unk>
        QCOMPARE(d.lastJson()["target_vocabulary"].toInt(), 29); // and <bos>, <eos>
    }

    void subwordsTravelWithTheCheckpoint()
    {
        // The user's own pairs as SentencePiece BPE pieces: the models are learnt in the run and kept in the
        // checkpoint, so translating needs nothing else — the pairs file is gone by then.
        const QString pairs = dir_.filePath("pairs.tsv");
        attnlab::testing::writeAnimalPairs(pairs.toStdString());
        const CliResult r = runCli({"train", "--dataset", "csv-pairs", "--file", pairs, "--model", "luong", "--subwords", "bpe",
                                    "--subword-vocabulary", "40", "--steps", "40", "--eval-every", "40", "--d-model", "16",
                                    "--db", db_, "--device", "cpu", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const int run = r.lastJson()["run_id"].toInt();
        QVERIFY(QFile::remove(pairs));
        const CliResult t = runCli({"translate", "--run", QString::number(run), "--text", "Katze Pferd", "--db", db_, "--json"});
        QVERIFY2(t.code == 0, qPrintable(t.err));
        const auto o = t.lastJson();
        const QString mark = QString::fromUtf8("\xE2\x96\x81");
        const auto source = o["source_tokens"].toArray();
        QVERIFY(source.size() >= 2);
        QVERIFY2(source.first().toString().startsWith(mark), qPrintable(source.first().toString())); // pieces, split as in training
        QVERIFY(!o["translation"].toString().contains(mark));                                          // text, glued back
        // The built-in tasks are refused by name.
        const CliResult refused = runCli({"train", "--dataset", "synthetic-reverse", "--model", "luong", "--subwords", "bpe",
                                          "--steps", "2", "--db", db_, "--device", "cpu"});
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("subwords"), qPrintable(refused.err));
    }

    // explain --steps on a translation run: one head of the cross-attention for a forced translation, step by step;
    // its weights are the row translate --force gives for the same head. A recurrent model has no head to take.
    void oneHeadOfATranslationStepByStep()
    {
        const CliResult r = runCli({"train", "--dataset", "synthetic-reverse", "--model", "transformer-seq2seq", "--steps", "20",
                                    "--eval-every", "20", "--d-model", "16", "--heads", "2", "--layers", "2", "--db", db_,
                                    "--device", "cpu", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString run = QString::number(r.lastJson()["run_id"].toInt());
        const CliResult s = runCli({"explain", "--run", run, "--text", "ant bee cat", "--steps", "--part", "cross", "--layer", "1",
                                    "--head", "2", "--query", "1", "--force", "cat bee ant", "--db", db_, "--json"});
        QVERIFY2(s.code == 0, qPrintable(s.err));
        const auto steps = s.lastJson();
        QCOMPARE(steps["part"].toString(), QString("cross"));
        QCOMPARE(steps["layer"].toInt(), 1);
        QCOMPARE(steps["head"].toInt(), 2);
        QCOMPARE(steps["tokens"].toArray(), (QJsonArray{"ant", "bee", "cat"}));
        QCOMPARE(steps["query_tokens"].toArray(), (QJsonArray{"cat", "bee", "ant", "<eos>"}));
        const CliResult t = runCli({"translate", "--run", run, "--text", "ant bee cat", "--force", "cat bee ant", "--db", db_, "--json"});
        QVERIFY2(t.code == 0, qPrintable(t.err));
        QJsonArray row;
        for (const auto& m : t.lastJson()["cross_attention"].toArray())
            if (m.toObject()["layer"].toInt() == 0 && m.toObject()["head"].toInt() == 1)
                row = m.toObject()["weights"].toArray()[1].toArray();
        QCOMPARE(row.size(), 3);
        for (int j = 0; j < 3; ++j) {
            QVERIFY(std::abs(steps["weights"].toArray()[j].toDouble() - row[j].toDouble()) < 1e-6);
            QVERIFY(std::abs(steps["weights"].toArray()[j].toDouble() - steps["model_weights"].toArray()[j].toDouble()) < 1e-6);
        }
        const CliResult text = runCli({"explain", "--run", run, "--text", "ant bee cat", "--steps", "--part", "decoder", "--db", db_});
        QVERIFY2(text.code == 0 && text.out.contains("decoder self-attention · layer 1 head 1 · query 0"), qPrintable(text.out + text.err));
        const CliResult recurrent = runCli({"explain", "--run", QString::number(runId_), "--text", "ant bee cat", "--steps", "--db", db_});
        QCOMPARE(recurrent.code, 2);
        QVERIFY2(recurrent.err.contains("--part: a bahdanau has no attention to take step by step"), qPrintable(recurrent.err));
        const CliResult badPart = runCli({"explain", "--run", run, "--text", "ant bee cat", "--steps", "--part", "both", "--db", db_});
        QCOMPARE(badPart.code, 2);
        QVERIFY2(badPart.err.contains("--part: encoder, decoder or cross (got 'both')"), qPrintable(badPart.err));
    }

    // --temperature / --top-k / --top-p / --seed draw each word: line i of a file with seed S is the sentence alone
    // with seed S + i (each its own stream, whatever it is batched with); the JSON says how it was drawn; top-k 1 is
    // the greedy translation; a beam, a forced target and bad settings are refused naming the flag.
    void aDrawnTranslationIsSeededLineByLine()
    {
        const QStringList lines = {"ant bee cat dog", "cow dog eel", "eel ant", "bee cat dog eel ant"};
        const QString file = dir_.filePath("drawn.src");
        {
            std::ofstream out(file.toStdString());
            for (const auto& line : lines)
                out << line.toStdString() << "\n";
        }
        const CliResult all = runCli({"translate", "--run", QString::number(runId_), "--file", file, "--temperature", "3", "--seed", "11",
                                      "--db", db_});
        QVERIFY2(all.code == 0, qPrintable(all.err));
        const QStringList drawn = all.out.split('\n').mid(0, static_cast<int>(lines.size()));
        int differ = 0;
        for (int i = 0; i < lines.size(); ++i) {
            const CliResult one = runCli({"translate", "--run", QString::number(runId_), "--text", lines[i], "--temperature", "3",
                                          "--seed", QString::number(11 + i), "--db", db_, "--json"});
            QVERIFY2(one.code == 0, qPrintable(one.err));
            const auto o = one.lastJson();
            QCOMPARE(o["translation"].toString(), drawn[i]);
            QCOMPARE(o["sampling"].toObject()["seed"].toInt(), 11 + i);
            QCOMPARE(o["sampling"].toObject()["temperature"].toDouble(), 3.0);
            const CliResult greedy = runCli({"translate", "--run", QString::number(runId_), "--text", lines[i], "--db", db_, "--json"});
            const CliResult topOne = runCli({"translate", "--run", QString::number(runId_), "--text", lines[i], "--top-k", "1",
                                             "--db", db_, "--json"});
            QCOMPARE(topOne.lastJson()["translation"].toString(), greedy.lastJson()["translation"].toString());
            QVERIFY(!greedy.lastJson().contains("sampling"));
            differ += drawn[i] != greedy.lastJson()["translation"].toString();
        }
        QVERIFY2(differ > 0, "at temperature 3 every drawn translation was the greedy one");
        const QList<QStringList> refused = {{"--temperature", "0"}, {"--top-p", "1.5"}, {"--top-k", "-2"},
                                            {"--top-k", "2", "--beam", "3"}, {"--seed", "4", "--force", "dog cat"}};
        for (const QStringList& flags : refused) {
            const CliResult r = runCli(QStringList{"translate", "--run", QString::number(runId_), "--text", "ant bee", "--db", db_} + flags);
            QVERIFY2(r.code == 2, qPrintable(flags.join(' ') + ": exit " + QString::number(r.code)));
            QVERIFY2(r.err.section('\n', 0, 0).contains(flags[flags.size() - 2]), qPrintable(r.err));
        }
    }

    void refusesWhatItCannotTranslate()
    {
        // A classifier's run: named as such, exit 1.
        const CliResult train = runCli({"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--steps", "2", "--eval-every",
                                        "2", "--d-model", "8", "--db", db_, "--device", "cpu", "--json"});
        QVERIFY2(train.code == 0, qPrintable(train.err));
        const int classifier = train.lastJson()["run_id"].toInt();
        const CliResult r = runCli({"translate", "--run", QString::number(classifier), "--text", "good", "--db", db_});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("not a translation model"), qPrintable(r.err));
        // Usage errors exit 2: neither --text nor --file, a beam of 0.
        QCOMPARE(runCli({"translate", "--run", QString::number(runId_), "--db", db_}).code, 2);
        QCOMPARE(runCli({"translate", "--run", QString::number(runId_), "--text", "ant", "--beam", "0", "--db", db_}).code, 2);
        // The decoding flags are checked once (DecodingSettings), so train and translate refuse the same values with
        // the same words, naming the flag: not a number, infinite, negative, past the bounds. Nothing is stored.
        const auto runsBefore = RunStore(db_.toStdString()).listRuns().size();
        const QList<QStringList> refused = {{"--length-penalty", "nan"}, {"--length-penalty", "inf"},
                                            {"--length-penalty", "-0.5"}, {"--length-penalty", "5.5"},
                                            {"--beam", "0"}, {"--beam", "65"}};
        for (const QStringList& flag : refused) {
            const CliResult t = runCli(QStringList{"translate", "--run", QString::number(runId_), "--text", "ant", "--db", db_} + flag);
            const CliResult tr = runCli(QStringList{"train", "--dataset", "synthetic-copy", "--steps", "2", "--db", db_,
                                                    "--device", "cpu"} + flag);
            QVERIFY2(t.code == 2, qPrintable(flag.join(' ') + ": translate exit " + QString::number(t.code)));
            QVERIFY2(tr.code == 2, qPrintable(flag.join(' ') + ": train exit " + QString::number(tr.code)));
            const QString first = t.err.section('\n', 0, 0);
            QVERIFY2(first.contains(flag[0] + ": ") && first.contains("(got "), qPrintable(first));
            // The same reason, word for word, from both commands.
            const QString reason = first.mid(first.indexOf(flag[0]));
            QVERIFY2(tr.err.contains(reason), qPrintable(tr.err + " / " + reason));
        }
        QCOMPARE(RunStore(db_.toStdString()).listRuns().size(), runsBefore);
        // The bounds themselves are accepted by both: a beam of 64 and alpha 5.
        const CliResult widest = runCli({"translate", "--run", QString::number(runId_), "--text", "ant", "--beam", "64",
                                         "--length-penalty", "5", "--db", db_, "--json"});
        QVERIFY2(widest.code == 0, qPrintable(widest.err));
        QCOMPARE(widest.lastJson()["beam_size"].toInt(), 64);
        // A classifier's model on a translation dataset is refused before anything trains, naming the task.
        const CliResult wrong = runCli({"train", "--dataset", "synthetic-copy", "--model", "ssan", "--steps", "2", "--db", db_, "--device", "cpu"});
        QVERIFY(wrong.code != 0);
        QVERIFY2(wrong.err.contains("translation"), qPrintable(wrong.err));
    }
};

QTEST_GUILESS_MAIN(TestCliTranslation)
#include "test_cli_translation.moc"
