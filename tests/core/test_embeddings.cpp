// Word vectors: every file format, the cache, coverage, out-of-vocabulary rows, bad lines, and training
// with pre-trained vectors (frozen and fine-tuned).
#include "core/data/DataError.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/Vocabulary.h"
#include "core/data/WordEmbeddings.h"
#include "core/training/Trainer.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <zlib.h>

#include <cmath>

using namespace attnlab;

namespace {

void write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

QByteArray gzip(const QByteArray& bytes)
{
    QTemporaryDir tmp;
    const QString path = tmp.path() + "/x.gz";
    gzFile f = gzopen(path.toLocal8Bit().constData(), "wb");
    gzwrite(f, bytes.constData(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
    QFile in(path);
    in.open(QIODevice::ReadOnly);
    return in.readAll();
}

WordEmbeddings::LoadOptions cacheIn(const QTemporaryDir& dir)
{
    WordEmbeddings::LoadOptions o;
    o.cacheDir = (dir.path() + "/cache").toStdString();
    return o;
}

// Runs f, expects a DataError at `line` whose message holds `words`.
template <typename F>
void expectDataError(F f, int line, const QString& words)
{
    try {
        f();
        QFAIL("no error");
    } catch (const DataError& e) {
        QCOMPARE(e.line(), line);
        QVERIFY2(QString(e.what()).contains(words), e.what());
    }
}

class Capture : public TrainingObserver {
public:
    void onStarted(const RunInfo& info) override { summary = info.modelSummary; }
    std::string summary;
};

} // namespace

class TestEmbeddings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyFormat()
    {
        QTemporaryDir tmp;
        const QByteArray glove = "the 0.5 -1 2\nGood 1e-1 0.25 3\n";
        write(tmp.path() + "/g.txt", glove);
        write(tmp.path() + "/g.txt.gz", gzip(glove));
        write(tmp.path() + "/w.vec", "2 3\nthe 0.5 -1 2\nGood 0.1 0.25 3\n");
        QByteArray binary = "2 3\n";
        for (const auto& [word, values] : {std::pair<QByteArray, std::vector<float>>{"the", {0.5f, -1.f, 2.f}}, {"Good", {0.1f, 0.25f, 3.f}}}) {
            binary += word + " ";
            binary += QByteArray(reinterpret_cast<const char*>(values.data()), 12);
            binary += "\n";
        }
        write(tmp.path() + "/w.bin", binary);
        for (const auto& [file, format] : {std::pair{"g.txt", "glove-text"}, {"g.txt.gz", "glove-text"},
                                           {"w.vec", "word2vec-text"}, {"w.bin", "word2vec-binary"}}) {
            WordEmbeddings::LoadOptions noCache;
            noCache.useCache = false;
            const auto e = WordEmbeddings::load((tmp.path() + "/" + file).toStdString(), noCache);
            QCOMPARE(QString::fromStdString(e.report().format), QString(format));
            QCOMPARE(e.dimension(), 3);
            QCOMPARE(int(e.size()), 2);
            QCOMPARE(e.find("the")[1], -1.0f);
            QCOMPARE(e.lookup("GOOD"), nullptr);  // lowercase fallback goes one way: "Good" is not "good"
            QCOMPARE(e.lookup("The")[0], 0.5f);   // "The" -> "the"
            QCOMPARE(e.find("Good")[2], 3.0f);
        }
    }

    void cacheGivesTheSameVectors()
    {
        QTemporaryDir tmp;
        write(tmp.path() + "/g.txt", "a 1 2\nb 3 4\n");
        const auto first = WordEmbeddings::load((tmp.path() + "/g.txt").toStdString(), cacheIn(tmp));
        QVERIFY(!first.report().fromCache);
        const auto second = WordEmbeddings::load((tmp.path() + "/g.txt").toStdString(), cacheIn(tmp));
        QVERIFY(second.report().fromCache);
        QCOMPARE(second.report().format, first.report().format);
        QCOMPARE(second.find("b")[1], 4.0f);
        // A damaged cache file is ignored and rewritten.
        write(QString::fromStdString(second.report().cacheFile), "ATTNEMB1 garbage");
        const auto third = WordEmbeddings::load((tmp.path() + "/g.txt").toStdString(), cacheIn(tmp));
        QVERIFY(!third.report().fromCache);
        QCOMPARE(third.find("a")[0], 1.0f);
        // A changed file is a different key.
        QTest::qWait(20);
        write(tmp.path() + "/g.txt", "a 9 9\n");
        const auto changed = WordEmbeddings::load((tmp.path() + "/g.txt").toStdString(), cacheIn(tmp));
        QVERIFY(!changed.report().fromCache);
        QCOMPARE(changed.find("a")[0], 9.0f);
    }

    void vocabularyRowsAndCoverage()
    {
        QTemporaryDir tmp;
        write(tmp.path() + "/g.txt", "good 1 1\nbad -1 -1\n");
        const auto e = WordEmbeddings::load((tmp.path() + "/g.txt").toStdString(), cacheIn(tmp));
        Vocabulary v;
        v.add("Good");
        v.add("zzz");
        std::int64_t found = 0;
        const auto m = e.matrixFor(v, 0.05, 3, &found);
        QCOMPARE(found, std::int64_t(1));
        QCOMPARE(m[0], 0.0f); // padding row is zero
        QCOMPARE(m[1], 0.0f);
        QCOMPARE(m[2 * 2], 1.0f); // "Good" -> "good"
        for (int k = 0; k < 2; ++k) {
            QVERIFY(std::abs(m[3 * 2 + k]) <= 0.05f); // out of vocabulary: uniform in [-a, a]
            QVERIFY(std::abs(m[1 * 2 + k]) <= 0.05f); // <unk> too
        }
        QCOMPARE(e.matrixFor(v, 0.05, 3), m); // reproducible by seed
        const std::vector<TextExample> split = {{{"good", "bad", "zzz", "good"}, 0}};
        const auto c = e.coverage({&split});
        QCOMPARE(c.types, std::int64_t(3));
        QCOMPARE(c.typesCovered, std::int64_t(2));
        QCOMPARE(c.tokensCovered, std::int64_t(3));
    }

    void badLines()
    {
        QTemporaryDir tmp;
        write(tmp.path() + "/n.txt", "a 1 2 3\nb 1 x 3\n");
        expectDataError([&] { WordEmbeddings::load((tmp.path() + "/n.txt").toStdString(), cacheIn(tmp)); }, 2,
                        "value 'x' is not a number");
        write(tmp.path() + "/d.txt", "a 1 2 3\nb 1 2 3\nc 1 2\n");
        expectDataError([&] { WordEmbeddings::load((tmp.path() + "/d.txt").toStdString(), cacheIn(tmp)); }, 3,
                        "2 values, expected 3 (as on line 1)");
        write(tmp.path() + "/h.vec", "2 3\na 1 2 3\nb 1 2 3 4\n");
        expectDataError([&] { WordEmbeddings::load((tmp.path() + "/h.vec").toStdString(), cacheIn(tmp)); }, 3,
                        "4 values, expected 3");
        expectDataError([&] { WordEmbeddings::load((tmp.path() + "/missing.txt").toStdString(), cacheIn(tmp)); }, 0,
                        "cannot open");
    }

    void trimmedGloveFile()
    {
        const QString dir = qEnvironmentVariable("ATTNLAB_DATA_DIR");
        const QString file = dir + "/embeddings/glove.6B.100d.sentiment-vocab.txt.gz";
        if (dir.isEmpty() || !QFile::exists(file)) {
            if (qEnvironmentVariable("CI") == "true") QFAIL("no GloVe file under ATTNLAB_DATA_DIR and CI=true");
            QSKIP("no real data");
        }
        QTemporaryDir tmp;
        const auto e = WordEmbeddings::load(file.toStdString(), cacheIn(tmp));
        QCOMPARE(int(e.size()), 30597);
        QCOMPARE(e.dimension(), 100);
        QCOMPARE(e.find("the")[0], -0.038194f);
        QCOMPARE(e.report().sha256, std::string("90ca9b29f286b85cf95ac8b2bd140fc35b650657fecdd585dca26b3c7b4cf85e"));
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        const auto sst = DatasetCatalog::load("sst-fine", o);
        const auto c = e.coverage({&sst.train, &sst.dev, &sst.test});
        QVERIFY2(c.tokenRate() > 0.98, qPrintable(QString::number(c.tokenRate()))); // PROVENANCE.md: 98.4%
    }

    void trainingWithPretrainedVectors()
    {
        QTemporaryDir tmp;
        DatasetOptions o;
        o.syntheticTrain = 300;
        o.syntheticDev = o.syntheticTest = 50;
        const auto d = DatasetCatalog::load("synthetic-sentiment", o);
        QByteArray file;
        const auto vocabulary = Vocabulary::fromExamples(d.train);
        for (std::int64_t id = 2; id < vocabulary.size(); id += 2) { // half the words
            file += QByteArray::fromStdString(vocabulary.token(id));
            for (int k = 0; k < 16; ++k) file += " " + QByteArray::number((id * 7 + k) % 11 / 10.0);
            file += "\n";
        }
        write(tmp.path() + "/v.txt", file);
        for (bool frozen : {true, false}) {
            TrainConfig c;
            c.steps = 20;
            c.evalEvery = 10;
            c.model.dModel = 16;
            c.embeddingsPath = (tmp.path() + "/v.txt").toStdString();
            c.embeddingsFrozen = frozen;
            c.oovRange = 0.05;
            qputenv("ATTNLAB_CACHE_DIR", (tmp.path() + "/cache").toUtf8());
            Capture capture;
            CancelToken cancel;
            const auto summary = Trainer(c).run(d, capture, cancel);
            QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
            const QString s = QString::fromStdString(capture.summary);
            QVERIFY2(s.contains("16-d") && s.contains(frozen ? "frozen" : "fine-tuned"), qPrintable(s));
            QVERIFY2(s.contains(QString::number((vocabulary.size() - 2 + 1) / 2) + " of"), qPrintable(s));
            QCOMPARE(TrainConfig::fromJson(c.toJson()).embeddingsFrozen, frozen);
        }
    }
};

QTEST_GUILESS_MAIN(TestEmbeddings)
#include "test_embeddings.moc"
