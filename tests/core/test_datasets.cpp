// Readers, tokenisation, statistics and bad input. Real-data checks read ATTNLAB_DATA_DIR
// (set by CTest from ATTNLAB_SHARED_DATASETS, and by .ci/run); without data they fail in CI, skip elsewhere.
#include "core/config/Registry.h"
#include "core/data/CsvTable.h"
#include "core/data/DataError.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/DatasetStatistics.h"
#include "core/data/OwnDataFiles.h"
#include "core/data/readers/SstTree.h"
#include "core/data/readers/SyntheticSentiment.h"
#include "core/data/TextFile.h"
#include "core/data/Tokenizer.h"

#include <QRegularExpression>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "tests/support/RealData.h"

#include <cmath>
#include <numeric>

using namespace attnlab;

namespace {

void write(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

std::vector<std::int64_t> counts(const std::vector<TextExample>& split, int classes)
{
    std::vector<std::int64_t> c(static_cast<std::size_t>(classes), 0);
    for (const auto& e : split) ++c[static_cast<std::size_t>(e.label)];
    return c;
}

// Runs f, expects a DataError whose file ends with `file` and whose line is `line`.
template <typename F>
void expectDataError(F f, const QString& file, int line, const QString& words)
{
    try {
        f();
        QFAIL(qPrintable("no error; expected one about " + words));
    } catch (const DataError& e) {
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(QString::fromStdString(e.file()).endsWith(file), qPrintable(message));
        QCOMPARE(e.line(), line);
        QVERIFY2(message.contains(words, Qt::CaseInsensitive), qPrintable(message));
    }
}

} // namespace

class TestDatasets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A run's own files, fingerprinted and checked again: the sha256 of "abc" is the FIPS 180-2
    // example's; moved, changed and unrecorded files are told apart, and the problem names file and setting.
    void ownDataFilesAreFingerprintedAndChecked()
    {
        QTemporaryDir dir;
        const std::string train = dir.filePath("train.tsv").toStdString(), test = dir.filePath("test.tsv").toStdString();
        for (const auto& path : {train, test}) {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("abc");
        }
        DatasetOptions o;
        o.trainFile = train;
        o.testFile = test;
        const auto files = OwnDataFiles::of(o);
        QCOMPARE(files.size(), std::size_t(2));
        QCOMPARE(files[0].key, std::string("train_file"));
        QCOMPARE(files[1].key, std::string("test_file"));
        const std::string abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        const auto recorded = OwnDataFiles::fingerprints(o);
        QCOMPARE(recorded.at("data_sha256.train_file"), abc);
        QCOMPARE(recorded.size(), std::size_t(2));
        const std::string environment = "{\"device\":\"cpu\",\"data_sha256.train_file\":\"" + abc + "\"}";
        QCOMPARE(OwnDataFiles::recorded(environment).size(), std::size_t(1));
        QVERIFY(OwnDataFiles::recorded("not json").empty());

        auto checks = OwnDataFiles::check(o, recorded);
        QVERIFY(checks[0].state == OwnDataFiles::State::Unchanged && checks[1].state == OwnDataFiles::State::Unchanged);
        QVERIFY(OwnDataFiles::problem(checks).empty());
        QVERIFY(OwnDataFiles::check(o, {})[0].state == OwnDataFiles::State::NotRecorded);

        {
            QFile f(QString::fromStdString(test));
            QVERIFY(f.open(QIODevice::Append));
            f.write("d");
        }
        checks = OwnDataFiles::check(o, recorded);
        QVERIFY(checks[1].state == OwnDataFiles::State::Changed);
        QVERIFY2(OwnDataFiles::problem(checks).find(test + " (setting test_file) has changed since the run (sha256 ba7816bf8f01") != std::string::npos,
                 OwnDataFiles::problem(checks).c_str());

        const std::string moved = dir.filePath("elsewhere.tsv").toStdString();
        QVERIFY(QFile::rename(QString::fromStdString(train), QString::fromStdString(moved)));
        checks = OwnDataFiles::check(o, recorded);
        QVERIFY(checks[0].state == OwnDataFiles::State::Missing);
        QVERIFY2(OwnDataFiles::problem(checks).find(train + " (setting train_file) is no longer there") != std::string::npos,
                 OwnDataFiles::problem(checks).c_str());
        QVERIFY(OwnDataFiles::relocate(o, "train_file", moved));
        QVERIFY(!OwnDataFiles::relocate(o, "dataset", moved));
        QVERIFY(OwnDataFiles::check(o, recorded)[0].state == OwnDataFiles::State::Unchanged);
        QVERIFY(OwnDataFiles::of(DatasetOptions{}).empty()); // a built-in dataset has none
    }

    // the catalog is one table of readers. Every dataset the registry lists has one, of its task:
    // a classification id refuses loadSeries and a regression id refuses load, each naming the id; the
    // generated ones load as their task; an id in neither is refused listing the known ones.
    void everyRegisteredDatasetHasOneReader()
    {
        for (const auto& entry : Registry::datasets()) {
            const bool regression = entry.task == TaskKind::Regression;
            QCOMPARE(DatasetCatalog::isRegression(entry.id), regression);
            try {
                if (regression)
                    DatasetCatalog::load(entry.id, DatasetOptions{});
                else
                    DatasetCatalog::loadSeries(entry.id, DatasetOptions{});
                QFAIL(qPrintable(QString::fromStdString(entry.id) + " loaded as the other task"));
            } catch (const std::invalid_argument& e) {
                const QString message = e.what();
                QVERIFY2(message.startsWith(QString::fromStdString("dataset '" + entry.id + "' is a ")), e.what());
            }
        }
        QVERIFY(!DatasetCatalog::load("synthetic-sentiment", DatasetOptions{}).train.empty());
        QCOMPARE(DatasetCatalog::load("synthetic-sentiment", DatasetOptions{}).tokenizer, std::string("whitespace"));
        QVERIFY(!DatasetCatalog::loadSeries("synthetic-lag", DatasetOptions{}).train.empty());
        QCOMPARE(DatasetCatalog::dataFolder("sst-binary"), std::string("sentiment/sst"));
        QCOMPARE(DatasetCatalog::dataFolder("csv-text"), std::string());
        try {
            DatasetCatalog::load("imdb", DatasetOptions{});
            QFAIL("imdb loaded");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).startsWith("unknown dataset 'imdb' (known: synthetic-sentiment,"), e.what());
        }
    }

    // ---- thesis Table 5.2 and 5.2.1, measured on the real files ----
    void sentimentCountsMatchTheThesis()
    {
        REQUIRE_REAL_DATA(dir);
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        struct Expected { const char* id; int train, dev, test, classes; };
        for (const auto& x : {Expected{"sst-fine", 8544, 1101, 2210, 5}, Expected{"sst-binary", 6920, 872, 1821, 2},
                              Expected{"opener", 2780, 186, 743, 4}, Expected{"sentube-auto", 3381, 225, 903, 2},
                              Expected{"sentube-tablets", 4997, 333, 1334, 2}, Expected{"semeval2013", 6021, 890, 2376, 3}}) {
            const auto d = DatasetCatalog::load(x.id, o);
            QCOMPARE(int(d.train.size()), x.train);
            QCOMPARE(int(d.dev.size()), x.dev);
            QCOMPARE(int(d.test.size()), x.test);
            QCOMPARE(d.numClasses(), x.classes);
            QVERIFY(!d.probeTokens.empty());
        }
    }

    void sstPhraseLevelCountsMatchTheThesis()
    {
        REQUIRE_REAL_DATA(dir);
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        o.phrases = true;
        o.rebalance = false;
        auto d = DatasetCatalog::load("sst-fine", o);
        QCOMPARE(counts(d.train, 5), (std::vector<std::int64_t>{8245, 34362, 219788, 44194, 11993}));
        QCOMPARE(int(d.dev.size()), 1101); // dev and test stay sentence level
        o.rebalance = true;                // thesis defaults: 672,640 examples
        QCOMPARE(int(DatasetCatalog::load("sst-fine", o).train.size()), 672640);
        const auto binary = DatasetCatalog::load("sst-binary", o);
        QCOMPARE(counts(binary.train, 2), (std::vector<std::int64_t>{92367, 123079}));
    }

    void sml2010FollowsTheProtocol()
    {
        REQUIRE_REAL_DATA(dir);
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        const auto d = DatasetCatalog::loadSeries("sml2010", o);
        QCOMPARE(int(d.train.size()), 3200);
        QCOMPARE(int(d.dev.size()), 400);
        QCOMPARE(int(d.test.size()), 537);
        QCOMPARE(d.drivers(), 16);
        QCOMPARE(QString::fromStdString(d.targetName), QString("3:Temperature_Comedor_Sensor"));
        QCOMPARE(d.window, 10);
        float lo = 1e9f, hi = -1e9f;
        for (const auto& w : d.train) {
            QCOMPARE(int(w.drivers.size()), 10 * 16);
            lo = std::min(lo, w.target);
            hi = std::max(hi, w.target);
        }
        QCOMPARE(lo, 0.0f);
        QVERIFY(std::abs(hi - 0.75f) < 1e-6f);
        // The last step's unknown target is the previous value; de-normalising gives degrees back.
        const auto& w = d.test[100];
        QCOMPARE(w.targetHistory[9], d.test[99].target);
        QCOMPARE(w.targetHistory[8], d.test[99].target);
        QVERIFY(std::abs(d.denormalise(0.0) - 11.352) < 1e-9);
        QVERIFY(std::abs(d.denormalise(0.75) - 28.924) < 1e-9);
    }

    // ---- readers on small files ----
    void sstTreesGiveSentencesAndPhrases()
    {
        const auto t = SstTree::parse("(3 (2 -LRB-It) (4 (4 (2 works) (3 well)) (2 .)))", "x.txt", 1);
        QCOMPARE(t.leaves, (std::vector<std::string>{"-LRB-It", "works", "well", "."}));
        const auto u = SstTree::parse("(3 (2 -LRB-) (4 (4 (2 works) (3 well)) (2 .)))", "x.txt", 1);
        QCOMPARE(u.leaves.front(), std::string("("));
        QCOMPARE(u.rootLabel(), 3);
        QCOMPARE(int(u.nodes.size()), 7);
        QCOMPARE(u.phrase(u.nodes[3]), (std::vector<std::string>{"works", "well"}));

        QTemporaryDir tmp;
        for (const char* split : {"train", "dev", "test"})
            write(tmp.path() + "/sentiment/sst/" + split + ".txt",
                  "(3 (2 It) (4 (2 works) (2 .)))\n(2 (2 So) (2 so))\n(0 (1 Very) (0 bad))\n");
        DatasetOptions o;
        o.dataDir = tmp.path().toStdString();
        const auto fine = DatasetCatalog::load("sst-fine", o);
        QCOMPARE(counts(fine.train, 5), (std::vector<std::int64_t>{1, 0, 1, 1, 0}));
        const auto binary = DatasetCatalog::load("sst-binary", o); // neutral dropped, {0,1} and {3,4} merged
        QCOMPARE(counts(binary.train, 2), (std::vector<std::int64_t>{1, 1}));
        o.phrases = true;
        o.rebalance = false;
        QCOMPARE(int(DatasetCatalog::load("sst-fine", o).train.size()), 5 + 3 + 3);
    }

    void labelledLinesAndTweets()
    {
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/sentiment/";
        for (const char* split : {"train", "dev", "test"}) {
            write(base + "sentube_auto/" + split + "/neg.txt", "it doesn't work\xEF\xBB\xBF\n");
            write(base + "sentube_auto/" + split + "/pos.txt", "\"Great\" car!!!\nnice\n");
            write(base + "semeval/" + split + ".tsv",
                  "1\t2\t\"positive\"\t@bob loves #cats :) http://t.co/x\n3\t4\t\"objective-OR-neutral\"\tok.\n");
        }
        DatasetOptions o;
        o.dataDir = tmp.path().toStdString();
        const auto s = DatasetCatalog::load("sentube-auto", o);
        QCOMPARE(int(s.train.size()), 3);
        QCOMPARE(s.train[0].tokens, (std::vector<std::string>{"it", "does", "n't", "work"}));
        QCOMPARE(s.train[1].tokens, (std::vector<std::string>{"``", "Great", "''", "car", "!!!"}));
        QCOMPARE(s.train[1].label, 1);
        const auto t = DatasetCatalog::load("semeval2013", o);
        QCOMPARE(t.train[0].tokens, (std::vector<std::string>{"@bob", "loves", "#cats", ":)", "http://t.co/x"}));
        QCOMPARE(t.train[0].label, 2);
        QCOMPARE(t.train[1].label, 1);
    }

    void tokenizerConventions()
    {
        const Tokenizer ptb(Tokenizer::Style::Ptb);
        QCOMPARE(ptb.tokenize("I can't believe it's (really) the U.S. film..."),
                 (std::vector<std::string>{"I", "ca", "n't", "believe", "it", "'s", "(", "really", ")", "the", "U.S.", "film", "..."}));
        QCOMPARE(Tokenizer(Tokenizer::Style::Ptb, true).tokenize("GOOD Movie"), (std::vector<std::string>{"good", "movie"}));
        QCOMPARE(Tokenizer(Tokenizer::Style::Whitespace).tokenize("a -LRB- b -RRB-"),
                 (std::vector<std::string>{"a", "(", "b", ")"}));
        QCOMPARE(Tokenizer::lowercased("\xC3\x89T\xC3\x89"), std::string("\xC3\xA9t\xC3\xA9")); // ÉTÉ -> été
    }

    void csvTextAsASpreadsheetWould()
    {
        QTemporaryDir tmp;
        const QString file = tmp.path() + "/reviews.csv";
        QByteArray csv = "text;label\n";
        for (int i = 0; i < 40; ++i)
            csv += QByteArray("\"good, really good\";pos\n") + "\"bad \"\"very\"\" bad\";neg\n";
        write(file, csv);
        DatasetOptions o;
        o.file = file.toStdString();
        const auto d = DatasetCatalog::load("csv-text", o);
        QCOMPARE(d.classNames, (std::vector<std::string>{"neg", "pos"}));
        QCOMPARE(int(d.train.size() + d.dev.size() + d.test.size()), 80);
        QCOMPARE(int(d.train.size()), 56);
        const auto again = DatasetCatalog::load("csv-text", o); // the split is reproducible by seed
        QCOMPARE(again.test[0].tokens, d.test[0].tokens);
        const auto table = CsvTable::read(file.toStdString(), {});
        QCOMPARE(table.delimiter, ';');
        QVERIFY(table.hasHeader);
        QCOMPARE(table.rows[1][0], std::string("bad \"very\" bad"));
    }

    void csvSeriesAndSyntheticLag()
    {
        QTemporaryDir tmp;
        const QString file = tmp.path() + "/series.tsv";
        QByteArray tsv = "time\ttemp\tx\n";
        for (int i = 0; i < 100; ++i)
            tsv += QByteArray::number(i) + "\t" + QByteArray::number(20 + std::sin(i / 5.0)) + "\t" + QByteArray::number(i % 7) + "\n";
        write(file, tsv);
        DatasetOptions o;
        o.file = file.toStdString();
        o.targetColumn = "temp";
        o.window = 5;
        const auto s = DatasetCatalog::loadSeries("csv-series", o);
        QCOMPARE(int(s.train.size()), 70);
        QCOMPARE(int(s.dev.size()), 15);
        QCOMPARE(int(s.test.size()), 15);
        QCOMPARE(s.driverNames, (std::vector<std::string>{"time", "x"}));
        QCOMPARE(int(s.train[0].drivers.size()), 5 * 2);

        DatasetOptions g;
        g.lag = 4;
        g.leadDriver = 2;
        const auto lag = DatasetCatalog::loadSeries("synthetic-lag", g);
        QCOMPARE(lag.trueLag, 4);
        QCOMPARE(lag.trueDriver, 2);
        // The target follows driver 2 at lag 4 more closely than any other driver at any lag.
        auto correlation = [&](int driver, int lagSteps) {
            std::vector<double> a, b;
            for (const auto& w : lag.train) {
                a.push_back(w.target - w.targetHistory[8] * 0.6);
                b.push_back(w.drivers[static_cast<std::size_t>((9 - lagSteps) * lag.drivers() + driver)]);
            }
            const double ma = std::accumulate(a.begin(), a.end(), 0.0) / a.size(), mb = std::accumulate(b.begin(), b.end(), 0.0) / b.size();
            double sab = 0, saa = 0, sbb = 0;
            for (std::size_t i = 0; i < a.size(); ++i) {
                sab += (a[i] - ma) * (b[i] - mb);
                saa += (a[i] - ma) * (a[i] - ma);
                sbb += (b[i] - mb) * (b[i] - mb);
            }
            return sab / std::sqrt(saa * sbb);
        };
        const double truth = correlation(2, 4);
        QVERIFY2(truth > 0.5, qPrintable(QString::number(truth)));
        for (int driver = 0; driver < lag.drivers(); ++driver)
            for (int l = 1; l < 9; ++l)
                if (driver != 2 || l != 4) QVERIFY(correlation(driver, l) < truth);
    }

    void syntheticSentimentLengthAndDistance()
    {
        DatasetOptions o;
        o.distance = 3;
        o.minFillers = 1;
        o.maxFillers = 1;
        o.syntheticTrain = 300;
        const auto d = DatasetCatalog::load("synthetic-sentiment", o);
        for (const auto& e : d.train) {
            QCOMPARE(SyntheticSentiment::labelOf(e.tokens), e.label);
            QVERIFY(e.tokens.size() >= 7); // 1 filler + subject ("it") + verb + 3 fillers + adjective
        }
        QCOMPARE(d.train.size(), std::size_t(300));
    }

    void statisticsOfADataset()
    {
        TextDataset d;
        d.id = "x";
        d.classNames = {"a", "b"};
        d.train = {{{"a", "b", "c"}, 0}, {{"a"}, 1}, {{"d", "d"}, 1}};
        d.dev = {{{"e"}, 0}};
        d.test = {{{"a"}, 1}};
        const auto s = DatasetStatistics::of(d);
        QCOMPARE(s.splits[0].classCounts, (std::vector<std::int64_t>{1, 2}));
        QCOMPARE(s.splits[0].averageLength, 2.0);
        QCOMPARE(s.splits[0].maxLength, std::int64_t(3));
        QCOMPARE(s.vocabularySize, std::int64_t(5));
        QCOMPARE(s.trainVocabularySize, std::int64_t(4));
        QVERIFY(QString::fromStdString(s.toJson()).contains("\"class_counts\":[1,2]"));
    }

    // A language model's splits are token streams; its baseline is the dev loss of train's add-one counts.
    void statisticsOfALanguageModelStream()
    {
        LanguageModelDataset d;
        d.id = "lm";
        d.unit = "characters";
        d.vocabulary = {"a", "b", "c"};
        d.train = {0, 0, 0, 1}; // counts 3, 1, 0: p = 4/7, 2/7, 1/7
        d.dev = {0, 2};
        d.test = {1};
        const auto s = DatasetStatistics::of(d);
        QCOMPARE(s.task, TaskKind::LanguageModel);
        QCOMPARE(s.splits.size(), std::size_t(3));
        QCOMPARE(s.splits[0].examples, std::int64_t(4));
        QCOMPARE(s.splits[1].examples, std::int64_t(2));
        QCOMPARE(s.vocabularySize, std::int64_t(3));
        QCOMPARE(s.trainVocabularySize, std::int64_t(2));
        QVERIFY(std::abs(s.unigramDevLoss - (-(std::log(4.0 / 7.0) + std::log(1.0 / 7.0)) / 2.0)) < 1e-12);
        QVERIFY(QString::fromStdString(s.toJson()).contains("\"dev\":{\"tokens\":2}"));
        QVERIFY(QString::fromStdString(s.toText()).contains(QRegularExpression("train +4 characters")));
    }

    // Through the loader, as the designer and `stats` read it: nanoGPT's split of tiny Shakespeare.
    void tinyShakespeareStatisticsCountItsCharacters()
    {
        REQUIRE_REAL_DATA(dir);
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        const auto shakespeare = DatasetStatistics::of(DatasetCatalog::loadAny("tinyshakespeare", o));
        QCOMPARE(shakespeare.task, TaskKind::LanguageModel);
        QCOMPARE(shakespeare.splits[0].examples, std::int64_t(1003854));
        QCOMPARE(shakespeare.splits[1].examples, std::int64_t(111540));
        QCOMPARE(shakespeare.vocabularySize, std::int64_t(65));
    }

    // The thesis' Table 5.2: OpeNER (shipped tokenised) matches it exactly; SST's tree leaves give 56 where
    // Barnes et al.'s own tokenisation gives 57 (docs/DATASETS.md explains the difference).
    void statisticsAgainstTheThesisTable()
    {
        REQUIRE_REAL_DATA(dir);
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        const auto opener = DatasetStatistics::of(DatasetCatalog::load("opener", o));
        QCOMPARE(QString::number(opener.splits[0].averageLength, 'f', 2), QString("4.28"));
        QCOMPARE(opener.splits[0].maxLength, std::int64_t(23));
        QCOMPARE(opener.vocabularySize, std::int64_t(2447));
        const auto sst = DatasetStatistics::of(DatasetCatalog::load("sst-fine", o));
        std::int64_t longest = 0;
        for (const auto& split : sst.splits)
            longest = std::max(longest, split.maxLength);
        QCOMPARE(longest, std::int64_t(56));
        QCOMPARE(sst.vocabularySize, std::int64_t(21701));
    }

    // ---- bad input: a clear error naming the file and line (or the setting) ----
    void malformedTree()
    {
        QTemporaryDir tmp;
        for (const char* split : {"train", "dev", "test"})
            write(tmp.path() + "/sentiment/sst/" + split + ".txt", "(3 (2 It) (2 works))\n(3 (2 It) (2 works)\n");
        DatasetOptions o;
        o.dataDir = tmp.path().toStdString();
        expectDataError([&] { DatasetCatalog::load("sst-fine", o); }, "sst/train.txt", 2, "missing ')'");
        expectDataError([] { SstTree::parse("(7 (2 a))", "t.txt", 4); }, "t.txt", 4, "label 0..4");
    }

    void shortTsvRowAndUnknownLabel()
    {
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/sentiment/semeval/";
        write(base + "dev.tsv", "1\t2\t\"positive\"\tfine\n");
        write(base + "test.tsv", "1\t2\t\"positive\"\tfine\n");
        write(base + "train.tsv", "1\t2\t\"positive\"\tfine\n1\t2\tno text here\n");
        DatasetOptions o;
        o.dataDir = tmp.path().toStdString();
        expectDataError([&] { DatasetCatalog::load("semeval2013", o); }, "semeval/train.tsv", 2, "short row");
        write(base + "train.tsv", "1\t2\t\"positive\"\tfine\n1\t2\t\"happy\"\ttext\n");
        expectDataError([&] { DatasetCatalog::load("semeval2013", o); }, "semeval/train.tsv", 2, "unknown label");

        write(tmp.path() + "/train.csv", "text,label\ngood,pos\nbad,neg\n");
        write(tmp.path() + "/dev.csv", "text,label\nok,pos\nmeh,neutral\n");
        write(tmp.path() + "/test.csv", "text,label\nok,pos\n");
        DatasetOptions c;
        c.trainFile = (tmp.path() + "/train.csv").toStdString();
        c.devFile = (tmp.path() + "/dev.csv").toStdString();
        c.testFile = (tmp.path() + "/test.csv").toStdString();
        expectDataError([&] { DatasetCatalog::load("csv-text", c); }, "dev.csv", 3, "unknown label 'neutral'");
        write(tmp.path() + "/test.csv", "text,label\nok,pos\nonly text\n");
        expectDataError([&] { DatasetCatalog::load("csv-text", c); }, "test.csv", 3, "short row");
    }

    void emptyOrMissingSplit()
    {
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/sentiment/opener/";
        for (const char* cls : {"strneg", "neg", "pos", "strpos"}) {
            write(base + "train/" + cls + ".txt", "nice room\n");
            write(base + "dev/" + cls + ".txt", "");
        }
        DatasetOptions o;
        o.dataDir = tmp.path().toStdString();
        expectDataError([&] { DatasetCatalog::load("opener", o); }, "opener/dev", 0, "empty");
        for (const char* cls : {"strneg", "neg", "pos", "strpos"}) write(base + "dev/" + cls + ".txt", "ok\n");
        expectDataError([&] { DatasetCatalog::load("opener", o); }, "opener/test/strneg.txt", 0, "cannot open");
        // A dataset not in any data folder says where it looked and how to get it.
        QTemporaryDir empty;
        o.dataDir = empty.path().toStdString();
        qputenv("ATTNLAB_DATA_DIR", empty.path().toUtf8());
        try {
            DatasetCatalog::load("sst-fine", o);
            QFAIL("no error");
        } catch (const DataError& e) {
            QVERIFY(QString(e.what()).contains("ATTNLAB_DATA_DIR"));
        }
        qputenv("ATTNLAB_DATA_DIR", realDataDir().toUtf8());
    }

    void invalidUtf8()
    {
        QTemporaryDir tmp;
        const QString base = tmp.path() + "/sentiment/sentube_tablets/";
        for (const char* split : {"train", "dev", "test"})
            for (const char* cls : {"neg", "pos"}) write(base + split + "/" + cls + ".txt", "fine\nalso fine\n");
        write(base + "train/pos.txt", "fine\nalso fine\nbad \xC3\x28 byte\n");
        DatasetOptions o;
        o.dataDir = tmp.path().toStdString();
        expectDataError([&] { DatasetCatalog::load("sentube-tablets", o); }, "train/pos.txt", 3, "invalid UTF-8");
        write(tmp.path() + "/t.csv", "text,label\nok,1\n\xFF,2\n");
        DatasetOptions c;
        c.file = (tmp.path() + "/t.csv").toStdString();
        expectDataError([&] { DatasetCatalog::load("csv-text", c); }, "t.csv", 3, "invalid UTF-8");
    }

    void csvTargetColumnMissingAndSeriesTooShort()
    {
        QTemporaryDir tmp;
        write(tmp.path() + "/s.csv", "a,b\n1,2\n3,4\n5,6\n");
        DatasetOptions o;
        o.file = (tmp.path() + "/s.csv").toStdString();
        o.targetColumn = "temperature";
        expectDataError([&] { DatasetCatalog::loadSeries("csv-series", o); }, "s.csv", 0, "target column: column 'temperature' does not exist (columns: a, b)");
        o.targetColumn = "b";
        expectDataError([&] { DatasetCatalog::loadSeries("csv-series", o); }, "s.csv", 0, "shorter than the window");
        write(tmp.path() + "/s.csv", "a,b\n1,2\n3,x\n");
        expectDataError([&] { DatasetCatalog::loadSeries("csv-series", o); }, "s.csv", 3, "'x' is not a number");
    }
};

QTEST_GUILESS_MAIN(TestDatasets)
#include "test_datasets.moc"
