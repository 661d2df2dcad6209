// Inputs the fuzzers in fuzz/ found (docs/RELIABILITY.md, "Fuzzing"), each reduced to a readable case:
// every one is now a clear error naming the file (and line) or the key, where before it crashed, threw a
// library's own exception past the caller, or was accepted and went wrong later.
#include "core/config/TrainConfig.h"
#include "core/config/TrainPreset.h"
#include "core/data/DataError.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/WordEmbeddings.h"
#include "core/data/install/DatasetManifest.h"
#include "core/results/AttentionSnapshot.h"
#include "core/results/RunSummary.h"
#include "core/data/readers/SstTree.h"
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "core/sweep/SweepSpec.h"
#include "tests/support/RawSqlite.h"
#include "tests/support/StoreFixtures.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <functional>

using namespace attnlab;

namespace {

// Runs f and expects an exception of type E whose message contains every one of `words`.
template <typename E>
void expectError(const std::function<void()>& f, const QStringList& words)
{
    try {
        f();
        QFAIL(qPrintable("no error; expected one about " + words.join(", ")));
    } catch (const E& e) {
        const QString message = QString::fromUtf8(e.what());
        for (const auto& w : words)
            QVERIFY2(message.contains(w), qPrintable(message));
    }
}

} // namespace

class TestFuzzFindings : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string write(const QString& name, const QByteArray& bytes)
    {
        QFile f(dir_.filePath(name));
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(bytes);
        return f.fileName().toStdString();
    }
    static WordEmbeddings::LoadOptions noCache()
    {
        WordEmbeddings::LoadOptions o;
        o.useCache = false;
        return o;
    }

private Q_SLOTS:
    // fuzz_embeddings: "3\0003 " (a word, a trailing space, no numbers) loaded as vectors of width 0; the
    // word was then "found" with no values at all.
    void embeddingsLineWithoutNumbers()
    {
        const auto path = write("no-numbers.txt", QByteArray("the 0.1 0.2\ngood \n"));
        expectError<DataError>([&] { WordEmbeddings::load(path, noCache()); }, {"no-numbers.txt:2", "a word followed by numbers"});
        const auto only = write("only-word.txt", QByteArray("good \n"));
        expectError<DataError>([&] { WordEmbeddings::load(only, noCache()); }, {"only-word.txt:1", "a word followed by numbers"});
    }

    // Found reading the parser for the harness: "nan" and "inf" parse as numbers, and one such value
    // turns every loss of a run into NaN (reported as "diverged", far from the file's line).
    void embeddingsNonFiniteValues()
    {
        const auto text = write("nan.txt", QByteArray("the 0.1 0.2\nbad nan 0.5\n"));
        expectError<DataError>([&] { WordEmbeddings::load(text, noCache()); }, {"nan.txt:2", "'nan'", "not a finite number"});
        const auto inf = write("inf.vec", QByteArray("2 2\nthe 0.1 0.2\nbad 1 -inf\n"));
        expectError<DataError>([&] { WordEmbeddings::load(inf, noCache()); }, {"inf.vec:3", "'-inf'", "not a finite number"});
        QByteArray binary("1 2\nbad ");
        const float values[2] = {0.5f, std::numeric_limits<float>::quiet_NaN()};
        binary.append(reinterpret_cast<const char*>(values), sizeof values);
        const auto bin = write("nan.bin", binary);
        expectError<DataError>([&] { WordEmbeddings::load(bin, noCache()); }, {"nan.bin", "vector 1 ('bad')", "not a finite number"});
    }

    // A word2vec binary header is a claim: "99999999999 300" used to size the storage up front
    // (a length_error or an allocation of terabytes) before reading a single vector.
    void embeddingsBinaryHeaderBeyondTheFile()
    {
        QByteArray binary("99999999999 2\ngood ");
        const float values[2] = {0.5f, -0.25f};
        binary.append(reinterpret_cast<const char*>(values), sizeof values);
        const auto path = write("huge-count.bin", binary);
        expectError<DataError>([&] { WordEmbeddings::load(path, noCache()); }, {"huge-count.bin", "ends after 1 of the header's 99999999999 vectors"});
        const auto wide = write("huge-dim.bin", QByteArray("1 99999999999\ngood \x01\x02"));
        expectError<DataError>([&] { WordEmbeddings::load(wide, noCache()); }, {"huge-dim.bin:1", "99999999999 dimensions"});
    }

    // Found reading SstTree's recursive parser for fuzz_sst: a line of 200,000 '(' overflowed the stack
    // (a segmentation fault, no message). The fuzzers' inputs (32 KiB) are too short to reach it.
    void sstTreeNestedTooDeep()
    {
        std::string line;
        for (int i = 0; i < 200000; ++i) line += "(2 ";
        line += "word";
        line += std::string(200000, ')');
        expectError<DataError>([&] { SstTree::parse(line, "train.txt", 7); }, {"train.txt:7", "deeper than 1000 levels"});
        std::string deep; // 1000 levels still parse
        for (int i = 0; i < 1000; ++i) deep += "(2 ";
        deep += "word" + std::string(1000, ')');
        QCOMPARE(SstTree::parse(deep, "train.txt", 1).nodes.size(), std::size_t(1000));
    }

    // fuzz_csv_text: labels that look like whole numbers are sorted as numbers; the test for "whole"
    // converted to long long, undefined behaviour for a label such as 7.7e61 (UBSan:
    // "outside the range of representable values").
    void csvTextLabelsBeyondLongLong()
    {
        const QByteArray huge = "0" + QByteArray(62, '7');
        DatasetOptions o;
        o.trainFile = write("train.csv", "text;label\none;" + huge + "\ntwo;10\nthree;2\n");
        o.devFile = write("dev.csv", "text;label\nfour;2\n");
        o.testFile = write("test.csv", "text;label\nfive;" + huge + "\n");
        const auto d = DatasetCatalog::load("csv-text", o);
        QCOMPARE(d.classNames, (std::vector<std::string>{"2", "10", huge.toStdString()}));
    }

    // fuzz_run_store: a database whose text is not UTF-8 (written by another tool, or damaged) opened
    // and read fine, but exporting it threw nlohmann's type_error 316 ("invalid UTF-8 byte") past
    // RunExport, and so did `runs list --json`. Now such bytes are exported as U+FFFD.
    void storeTextThatIsNotUtf8()
    {
        const std::string path = dir_.filePath("latin1.sqlite").toStdString();
        std::int64_t id = 0;
        {
            RunStore store(path);
            id = store.beginRun(testing::sampleInfo());
            store.finishRun(id, testing::completed(0.5, 0.5));
        }
        testing::RawDb(path).exec("UPDATE runs SET name = CAST(X'636166E9' AS TEXT), notes = CAST(X'4ECA' AS TEXT)");
        RunStore store(path);
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), std::size_t(1));
        const auto exported = QString::fromStdString(RunExport(store).toJson());
        QVERIFY2(exported.contains(QString("caf") + QChar(0xFFFD)), qPrintable(exported.left(400)));
        // ...and imports again into another store.
        const std::string file = dir_.filePath("latin1.json").toStdString();
        RunExport(store).exportJson(file);
        RunStore other(dir_.filePath("other.sqlite").toStdString());
        QCOMPARE(RunExport(other).importFrom(file).added, 1);
    }

    // fuzz_manifest: a number too large for a double ("329e01374") made nlohmann's out_of_range escape
    // the parsers that caught only its parse_error; the same catch was in the config and sweep parsers.
    void jsonNumbersBeyondDouble()
    {
        expectError<std::runtime_error>([] { DatasetManifest::parse(R"({"id": "x", "files": [], "n": 329e01374})", "m.json"); },
                                        {"m.json", "not valid JSON", "number overflow"});
        expectError<std::invalid_argument>([] { TrainPreset::parse(R"({"steps": 1e999})", "c.json"); }, {"c.json"});
        expectError<std::invalid_argument>([] { TrainConfig::fromJson(R"({"learning_rate": -1e400})"); }, {"config JSON", "number overflow"});
        expectError<std::invalid_argument>([] { SweepSpec::parse(R"({"grid": {"steps": [1e999]}})", "s.json"); },
                                           {"s.json", "not valid JSON"});
    }

    // fuzz_config (CI, stop 20): {"steps": 2.7e92} reached nlohmann's bare double -> int cast (UB), and
    // 2.5 became 2 without a word. Integer keys take whole numbers in range only; 1e4 is 10000.
    void configIntegersFromFloats()
    {
        expectError<std::invalid_argument>([] { TrainConfig::fromJson(R"({"steps": 2.77778e92})"); }, {"'steps'", "out of range"});
        expectError<std::invalid_argument>([] { TrainConfig::fromJson(R"({"layers": 2.5})"); }, {"'layers'", "whole number"});
        expectError<std::invalid_argument>([] { TrainConfig::fromJson(R"({"heads": 4294967296})"); }, {"'heads'", "out of range"});
        expectError<std::invalid_argument>([] { TrainConfig::fromJson(R"({"seed": -1})"); }, {"'seed'", "negative"});
        expectError<std::invalid_argument>([] { TrainConfig::fromJson(R"({"batch_size": "32"})"); }, {"'batch_size'", "wrong type"});
        expectError<std::invalid_argument>([] { TrainPreset::parse(R"({"steps": -3e20})", "c.json"); }, {"c.json", "'steps'"});
        expectError<std::invalid_argument>([] { TrainPreset::parse(R"({"repeats": 1e92})", "c.json"); }, {"c.json", "repeats"});
        QCOMPARE(TrainConfig::fromJson(R"({"steps": 1e4})").steps, 10000);
        QCOMPARE(TrainConfig::fromJson(R"({"seed": 18446744073709551615})").seed, std::uint64_t(18446744073709551615ull));
        QCOMPARE(TrainConfig::fromJson(R"({"eval_every": -2147483648})").evalEvery, std::numeric_limits<int>::min());
        expectError<std::invalid_argument>([] { SweepSpec::parse(R"({"repeats": 10000000000})", "s.json"); }, {"s.json", "repeats"});
    }

    // The same cast in the runs import and in stored summaries and snapshots.
    void importedIntegersFromFloats()
    {
        const QString file = dir_.filePath("floats.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "attnlab-runs", "format_version": 1, "runs": [{"uuid": "u-1", "steps": 2.7e92}]})");
        f.close();
        RunStore store(dir_.filePath("floats.sqlite").toStdString());
        expectError<std::runtime_error>([&] { RunExport(store).importFrom(file.toStdString()); }, {"run 1", "'steps'", "2.7e+92"});
        QCOMPARE(store.listRuns().size(), std::size_t(0));
        expectError<std::invalid_argument>([] { RunSummary::fromJson(R"({"best_step": 1e300})"); }, {"run summary JSON", "'best_step'"});
        expectError<std::invalid_argument>([] { AttentionSnapshot::fromJson(R"({"step": 1.5, "tokens": [], "maps": []})"); },
                                           {"attention snapshot JSON", "'step'"});
    }
};

QTEST_GUILESS_MAIN(TestFuzzFindings)
#include "test_fuzz_findings.moc"
