// Messy real files (the hardening issue's bad-input cases): non-finite cells, missing values and their
// policy, text columns in a series, stray double quotes in TSV/CSV, and one enormous line. Each is a clear
// error naming file, line and column, or works as documented with what was done counted and noted.
#include "core/data/BatchBuilder.h"
#include "core/data/CsvTable.h"
#include "core/data/DataError.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/DatasetStatistics.h"
#include "core/data/MissingValues.h"
#include "core/data/NumericCell.h"
#include "core/data/Vocabulary.h"
#include "core/data/readers/Sml2010Reader.h"
#include "core/config/TeachingScenario.h"
#include "core/config/TrainPreset.h"
#include "core/training/Trainer.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;

namespace {

void write(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// Runs f, expects a DataError whose file ends with `file`, whose line is `line` and whose message has `words`.
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
        QVERIFY2(message.contains(words), qPrintable(message));
    }
}

// 20 rows, t = 0..19: x = 10 t, y = t (the target). Missing: y at t = 0 (N/A, a leading gap) and t = 19
// (empty, a trailing gap) and t = 4 (?); x at t = 3 (NA), 4 (empty) and 10 (NaN): 6 cells in 5 rows.
// The header is line 1, so row t is line t + 2.
QByteArray seriesWithGaps()
{
    QByteArray csv = "t,x,y\n";
    for (int t = 0; t < 20; ++t) {
        QByteArray x = QByteArray::number(10 * t), y = QByteArray::number(t);
        if (t == 3) x = "NA";
        if (t == 4) { x = ""; y = "?"; }
        if (t == 10) x = "NaN";
        if (t == 0) y = "N/A";
        if (t == 19) y = "";
        csv += QByteArray::number(t) + "," + x + "," + y + "\n";
    }
    return csv;
}

DatasetOptions seriesOptions(const QString& file, const std::string& missing)
{
    DatasetOptions o;
    o.file = file.toStdString();
    o.targetColumn = "y";
    o.driverColumns = {"x"};
    o.window = 2;
    o.missing = missing;
    return o;
}

// The series' rows back in original units: target of each window in time order, and the driver x at the
// window's last step.
std::vector<double> targets(const SeriesDataset& d)
{
    std::vector<double> y;
    for (const auto* split : {&d.train, &d.dev, &d.test})
        for (const auto& w : *split) y.push_back(d.denormalise(w.target));
    return y;
}

std::vector<double> lastDriver(const SeriesDataset& d, std::size_t f)
{
    std::vector<double> x;
    const std::size_t features = d.driverNames.size();
    for (const auto* split : {&d.train, &d.dev, &d.test})
        for (const auto& w : *split) {
            const double scaled = w.drivers[(static_cast<std::size_t>(d.window) - 1) * features + f];
            x.push_back(d.driverMin[f] + scaled / d.scaleTop * (d.driverMax[f] - d.driverMin[f]));
        }
    return x;
}

void compareNear(const std::vector<double>& got, const std::vector<double>& want)
{
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(std::abs(got[i] - want[i]) < 1e-4, qPrintable(QString("row %1: %2, expected %3").arg(i).arg(got[i]).arg(want[i])));
}

// A TSV of reviews, one per line, where every fourth line (1, 5, 9, ...) starts with a stray quote.
QByteArray reviewsWithStrayQuotes(int lines)
{
    QByteArray tsv;
    for (int i = 0; i < lines; ++i)
        tsv += QByteArray(i % 4 == 0 ? "\"" : "") + "review number " + QByteArray::number(i) + " was " +
               (i % 2 ? "good" : "bad") + "\t" + (i % 2 ? "pos" : "neg") + "\n";
    return tsv;
}

struct NotesObserver : TrainingObserver {
    RunInfo info;
    RunSummary summary;
    void onStarted(const RunInfo& i) override { info = i; }
    void onFinished(const RunSummary& s) override { summary = s; }
};

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cellsReadAsNumbersMissingNonFiniteOrText()
    {
        double v = -1;
        QVERIFY(NumericCell::classify(" 2.5 ", &v) == NumericCell::Kind::Number);
        QCOMPARE(v, 2.5);
        QVERIFY(NumericCell::classify("1e-999", &v) == NumericCell::Kind::Number); // underflow: 0, as spreadsheets read it
        QCOMPARE(v, 0.0);
        for (const char* missing : {"", "  ", "NA", "n/a", "N/A", "NaN", "nan", "-nan", "?", "null", "None", "#N/A"})
            QVERIFY2(NumericCell::classify(missing) == NumericCell::Kind::Missing, missing);
        for (const char* bad : {"inf", "-inf", "+Inf", "Infinity", "1e999", "-1E999"})
            QVERIFY2(NumericCell::classify(bad) == NumericCell::Kind::NonFinite, bad);
        for (const char* text : {"Mon", "12a", "2020-01-01", "1,5"})
            QVERIFY2(NumericCell::classify(text) == NumericCell::Kind::Text, text);
        QVERIFY(!CsvTable::isNumber("inf") && !CsvTable::isNumber("nan") && CsvTable::isNumber("-3"));
    }

    // Item 1: inf, -inf, 1e999 are refused at load with file, line and column (they trained to a NaN loss).
    void nonFiniteCellsAreErrors()
    {
        QTemporaryDir tmp;
        const QString file = tmp.path() + "/s.csv";
        const DatasetOptions o = seriesOptions(file, "interpolate"); // no policy makes inf a missing value
        struct Case { const char* x; const char* y; int line; const char* words; };
        for (const Case& c : {Case{"1", "inf", 5, "column 'y': not a finite number 'inf'"},
                              Case{"-inf", "3", 5, "column 'x': not a finite number '-inf'"},
                              Case{"1e999", "3", 5, "column 'x': not a finite number '1e999'"}}) {
            QByteArray csv = "t,x,y\n";
            for (int t = 0; t < 20; ++t)
                csv += QByteArray::number(t) + "," + (t == 3 ? QByteArray(c.x) : QByteArray::number(t)) + "," +
                       (t == 3 ? QByteArray(c.y) : QByteArray::number(t)) + "\n";
            write(file, csv);
            expectDataError([&] { DatasetCatalog::loadSeries("csv-series", o); }, "s.csv", c.line, c.words);
        }
        // SML2010's reader parses its cells the same way.
        QByteArray row = "13/03/2012 11:45";
        for (int c = 3; c <= 24; ++c) row += " " + QByteArray(c == 7 ? "inf" : "1.5");
        write(tmp.path() + "/sml2010/NEW-DATA-1.T15.txt", "# 1:Date 2:Time 3:T 4:T2 5:A 6:B 7:C\n" + row + "\n");
        write(tmp.path() + "/sml2010/NEW-DATA-2.T15.txt", row + "\n");
        expectDataError([&] { Sml2010Reader::read((tmp.path() + "/sml2010").toStdString(), DatasetOptions{}); },
                        "NEW-DATA-1.T15.txt", 2, "column '7:C': not a finite number 'inf'");
    }

    // Item 2: the policy, exactly: what each fills in, what drop leaves, and the counts and the note.
    void missingValuesFollowThePolicy()
    {
        QTemporaryDir tmp;
        const QString file = tmp.path() + "/s.csv";
        write(file, seriesWithGaps());

        // error (the default): the first missing cell in file order, with its text.
        QCOMPARE(DatasetOptions{}.missing, std::string("error"));
        expectDataError([&] { DatasetCatalog::loadSeries("csv-series", seriesOptions(file, "error")); }, "s.csv", 2,
                        "column 'y': missing value 'N/A'");

        std::vector<double> y(20), x(20);
        for (int t = 0; t < 20; ++t) { y[t] = t; x[t] = 10 * t; }

        auto s = DatasetCatalog::loadSeries("csv-series", seriesOptions(file, "interpolate"));
        QCOMPARE(s.missingCells, std::int64_t(6));
        QCOMPARE(s.missingRows, std::int64_t(5));
        QCOMPARE(s.missingPolicy, std::string("interpolate"));
        QCOMPARE(s.notes.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(s.notes[0]), file + ": 6 missing cells in 5 rows filled by linear interpolation");
        auto want = y;
        want[0] = 1;   // leading gap: the nearest value
        want[19] = 18; // trailing gap: the nearest value
        compareNear(targets(s), want); // y(4) = 4 between 3 and 5
        compareNear(lastDriver(s, 0), x); // x(3), x(4) = 30, 40 between 20 and 50; x(10) = 100

        s = DatasetCatalog::loadSeries("csv-series", seriesOptions(file, "ffill"));
        QCOMPARE(QString::fromStdString(s.notes[0]), file + ": 6 missing cells in 5 rows filled with the last value before them");
        want = y;
        want[0] = 1; want[4] = 3; want[19] = 18;
        compareNear(targets(s), want);
        auto wantX = x;
        wantX[3] = wantX[4] = 20; wantX[10] = 90;
        compareNear(lastDriver(s, 0), wantX);

        s = DatasetCatalog::loadSeries("csv-series", seriesOptions(file, "drop"));
        QCOMPARE(QString::fromStdString(s.notes[0]), file + ": 6 missing cells in 5 rows: those rows dropped");
        compareNear(targets(s), {1, 2, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18});
        QCOMPARE(s.train.size(), std::size_t(10)); // 70 % of the 15 rows left

        const auto st = DatasetStatistics::of(DatasetCatalog::loadAny("csv-series", seriesOptions(file, "interpolate")));
        QCOMPARE(st.missingCells, std::int64_t(6));
        QCOMPARE(st.missingRows, std::int64_t(5));
        QVERIFY(QString::fromStdString(st.toJson()).contains("\"missing_values\":{\"cells\":6,\"policy\":\"interpolate\",\"rows\":5}"));

        expectDataError([&] { DatasetCatalog::loadSeries("csv-series", seriesOptions(file, "mean")); }, "missing values", 0,
                        "unknown 'mean' (known: error, drop, ffill, interpolate)");
    }

    void missingValuesArithmetic()
    {
        const double gap = std::numeric_limits<double>::quiet_NaN();
        std::vector<std::vector<double>> columns = {{gap, gap, 2, gap, gap, 8, gap}, {1, 2, 3, 4, 5, 6, 7}};
        std::vector<int> lines = {2, 3, 4, 5, 6, 7, 8};
        const auto report = MissingValues::apply(MissingValues::Policy::Interpolate, columns, lines, {"a", "b"}, "f.csv");
        QCOMPARE(report.cells, std::int64_t(5));
        QCOMPARE(report.rows, std::int64_t(5));
        compareNear(columns[0], {2, 2, 2, 4, 6, 8, 8});
        std::vector<std::vector<double>> empty = {{gap, gap, gap}};
        std::vector<int> three = {2, 3, 4};
        expectDataError([&] { MissingValues::apply(MissingValues::Policy::ForwardFill, empty, three, {"a"}, "f.csv"); },
                        "f.csv", 0, "column 'a' has no value at all");
    }

    // Item 3: a column of text among the drivers is left out with a note naming it and its first line, or
    // one-hot encoded on request; as the target, or named as a driver, it is an error.
    void categoricalColumnsInASeries()
    {
        QTemporaryDir tmp;
        const QString file = tmp.path() + "/c.csv";
        static const char* days[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
        QByteArray csv = "date,weekday,x,y\n";
        for (int t = 0; t < 60; ++t)
            csv += "2020-03-" + QByteArray::number(100 + t) + "," + days[t % 7] + "," + QByteArray::number(t % 5) + "," +
                   QByteArray::number(t) + "\n";
        write(file, csv);
        DatasetOptions o;
        o.file = file.toStdString();
        o.targetColumn = "y";
        auto s = DatasetCatalog::loadSeries("csv-series", o);
        QCOMPARE(s.driverNames, std::vector<std::string>{"x"});
        QCOMPARE(s.notes.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(s.notes[0]),
                 file + ": column 'date' skipped: not numeric (first at line 2: '2020-03-100'; categorical onehot encodes it)");
        QVERIFY(QString::fromStdString(s.notes[1]).startsWith(file + ": column 'weekday' skipped: not numeric (first at line 2: 'Mon'"));

        o.categorical = "onehot"; // weekday: 7 columns in sorted order; date: 60 values, too many
        s = DatasetCatalog::loadSeries("csv-series", o);
        QCOMPARE(s.driverNames, (std::vector<std::string>{"weekday=Fri", "weekday=Mon", "weekday=Sat", "weekday=Sun",
                                                           "weekday=Thu", "weekday=Tue", "weekday=Wed", "x"}));
        QVERIFY(QString::fromStdString(s.notes[0]).contains("column 'date' skipped: text with 60 distinct values, too many"));
        const auto& first = s.train[0]; // t = 0, a Monday: only weekday=Mon is 1 at the window's last step
        const std::size_t features = s.driverNames.size(), last = (static_cast<std::size_t>(s.window) - 1) * features;
        for (std::size_t f = 0; f < 7; ++f)
            QCOMPARE(first.drivers[last + f] > 0.0f, f == 1);

        o.categorical = "skip";
        o.driverColumns = {"x", "weekday"};
        expectDataError([&] { DatasetCatalog::loadSeries("csv-series", o); }, "c.csv", 2,
                        "column 'weekday' (a driver) holds text, not numbers: value 'Mon'");
        o.driverColumns.clear();
        o.targetColumn = "weekday";
        expectDataError([&] { DatasetCatalog::loadSeries("csv-series", o); }, "c.csv", 2,
                        "column 'weekday' (the target): value 'Mon' is not a number");
        // A numeric column with a typo further down is an error at the typo, not a skipped column.
        csv.replace("\n2020-03-105,Sat,0,5\n", "\n2020-03-105,Sat,0a,5\n");
        write(file, csv);
        o.targetColumn = "y";
        expectDataError([&] { DatasetCatalog::loadSeries("csv-series", o); }, "c.csv", 7, "column 'x': value '0a' is not a number");
    }

    // Item 4: stray quotes. TSV reads quotes as text by default (one row per line); with quoting on, a
    // quoted field that swallows lines is reported where it starts.
    void strayQuotesInTsv()
    {
        QTemporaryDir tmp;
        const QString file = tmp.path() + "/reviews.tsv";
        write(file, reviewsWithStrayQuotes(48)); // stray quotes on lines 1, 5, ..., 45

        auto table = CsvTable::read(file.toStdString(), {'\t', 0, CsvTable::Quoting::Auto});
        QVERIFY(!table.quoted);
        QCOMPARE(table.rows.size(), std::size_t(48)); // one row per line
        QCOMPARE(QString::fromStdString(table.rows[4][0]), QString("\"review number 4 was bad"));
        QVERIFY(table.notes.empty());
        table = CsvTable::read(file.toStdString(), {0, 0, CsvTable::Quoting::Off}); // detected tab, quoting off
        QCOMPARE(table.rows.size(), std::size_t(48));

        table = CsvTable::read(file.toStdString(), {'\t', 0, CsvTable::Quoting::On});
        // Each quote on line 1, 9, 17, ... swallows up to the next one four lines on: 6 fields of 5 lines.
        QCOMPARE(table.rows.size(), std::size_t(48 - 6 * 4));
        QCOMPARE(table.notes.size(), std::size_t(CsvTable::kMaxQuoteNotes + 1));
        QCOMPARE(QString::fromStdString(table.notes[0]), file + ":1: a quoted field starts here and spans 5 lines");
        QCOMPARE(QString::fromStdString(table.notes[1]), file + ":9: a quoted field starts here and spans 5 lines");
        QVERIFY(QString::fromStdString(table.notes.back()).startsWith(file + ": 1 more quoted fields span lines (6 in all"));

        // Through the reader: the counts of every split add up to the line count, and the notes reach the dataset.
        DatasetOptions o;
        o.file = file.toStdString();
        o.header = 0;
        auto d = DatasetCatalog::load("csv-text", o);
        QCOMPARE(d.train.size() + d.dev.size() + d.test.size(), std::size_t(48));
        QVERIFY(d.notes.empty());
        o.quoting = "on";
        d = DatasetCatalog::load("csv-text", o);
        QCOMPARE(d.train.size() + d.dev.size() + d.test.size(), std::size_t(24));
        QCOMPARE(QString::fromStdString(d.notes.at(0)), file + ":1: a quoted field starts here and spans 5 lines");
    }

    void strayQuoteInCsv()
    {
        QTemporaryDir tmp;
        const QString file = tmp.path() + "/r.csv";
        // Comma-separated: quotes are on by default (RFC 4180); a quote never closed is an error at its line.
        write(file, "text,label\ngood film,pos\n\"bad film,neg\nok film,pos\n");
        DatasetOptions o;
        o.file = file.toStdString();
        expectDataError([&] { DatasetCatalog::load("csv-text", o); }, "r.csv", 3,
                        "a quoted field starts here and is never closed");
        // One that closes lines later and leaves a short row says where the quoted field began.
        write(file, "text,label\ngood film,pos\n\"bad film,neg\nok film\"\nfine,pos\n");
        expectDataError([&] { CsvTable::read(o.file, {}); }, "r.csv", 3,
                        "a quoted field starts at line 3 and spans 2 lines (if its quotes are part of the text, set quoting off)");
        expectDataError([&] { CsvTable::quotingFromName("maybe"); }, "quoting", 0, "unknown 'maybe' (known: auto, on, off)");
    }

    // Item 5: inputs longer than max_length are cut at batching, counted, and never make a wider batch.
    void longInputsAreTruncated()
    {
        std::vector<TextExample> examples;
        TextExample huge;
        for (int i = 0; i < 200000; ++i) huge.tokens.push_back("w" + std::to_string(i % 5000));
        huge.label = 1;
        examples.push_back(huge);
        for (int i = 0; i < 40; ++i) examples.push_back({{"short", "one", std::to_string(i)}, i % 2});
        const Vocabulary vocabulary = Vocabulary::fromExamples(examples);
        const BatchBuilder builder(examples, vocabulary, 512);
        QCOMPARE(builder.truncatedCount(), std::size_t(1));
        std::mt19937_64 rng(3);
        for (int i = 0; i < 50; ++i)
            QVERIFY(builder.randomBatch(rng, 8).maxLength <= 512);
        std::int64_t widest = 0;
        for (const auto& b : builder.evaluationBatches(16)) widest = std::max(widest, b.maxLength);
        QCOMPARE(widest, std::int64_t(512)); // the long one is there, cut to 512
        QCOMPARE(BatchBuilder(examples, vocabulary).truncatedCount(), std::size_t(0)); // 0 = no limit
    }

    // A CSV text dataset with one 200,000-word line trains 5 steps; the run says how many it truncated.
    void aTrainingRunWithOneHugeLine()
    {
        QTemporaryDir tmp;
        QByteArray train = "text,label\n", small = "text,label\n";
        QByteArray huge;
        for (int i = 0; i < 200000; ++i) huge += "w" + QByteArray::number(i % 5000) + " ";
        train += huge + ",pos\n";
        for (int i = 0; i < 30; ++i) train += (i % 2 ? "a fine film" : "a dull film") + QByteArray(i % 2 ? ",pos\n" : ",neg\n");
        for (int i = 0; i < 6; ++i) small += (i % 2 ? "fine" : "dull") + QByteArray(i % 2 ? ",pos\n" : ",neg\n");
        write(tmp.path() + "/train.csv", train);
        write(tmp.path() + "/dev.csv", small);
        write(tmp.path() + "/test.csv", small);
        DatasetOptions o;
        o.trainFile = (tmp.path() + "/train.csv").toStdString();
        o.devFile = (tmp.path() + "/dev.csv").toStdString();
        o.testFile = (tmp.path() + "/test.csv").toStdString();
        const auto data = DatasetCatalog::loadAny("csv-text", o);
        QCOMPARE(data.text.train.size(), std::size_t(31));
        QCOMPARE(data.text.train[0].tokens.size(), std::size_t(200000)); // one file per split: train keeps the file's order

        TrainConfig c;
        c.dataset = "csv-text";
        c.model.model = "ssan";
        c.model.position = "rpr";
        c.model.dModel = 16;
        c.steps = 5;
        c.evalEvery = 5;
        c.batchSize = 8;
        c.device = "cpu";
        QCOMPARE(c.model.maxLength, 512);
        NotesObserver observer;
        CancelToken cancel;
        const RunSummary summary = Trainer(c).run(data, observer, cancel);
        QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
        QCOMPARE(summary.steps, 5);
        QCOMPARE(observer.info.notes, std::vector<std::string>{"1 of 31 training examples truncated to 512 tokens (max_length)"});

        c.model.maxLength = 0;
        QVERIFY(QString::fromStdString(c.model.validate()).startsWith("max_length: must be at least 1"));
    }

    // A preset may say what it reached (docs/RESULTS.md); a lesson may name presets for real data. Both are
    // checked when read, with the key named.
    void presetExpectationsAndRealDataLessons()
    {
        const auto preset = TrainPreset::parse(R"({"dataset": "sst-fine", "model": "lstm", "position": "none",
            "expected": {"metric": "accuracy", "mean": 44.0, "std": 1.0, "runs": 3, "source": "RESULTS.md"}})", "p.json");
        QCOMPARE(QString::fromStdString(preset.expected.text()), QString::fromUtf8("44.0 \u00b1 1.0% test accuracy (3 runs)"));
        QCOMPARE(preset.config.dataset, std::string("sst-fine")); // "expected" is not a training setting
        const auto series = TrainPreset::parse(R"({"expected": {"metric": "mae", "mean": 0.0312, "std": 0.00104, "runs": 5, "source": "x"}})", "q.json");
        QCOMPARE(QString::fromStdString(series.expected.text()), QString::fromUtf8("0.0312 \u00b1 0.0010 test MAE (5 runs)"));
        QVERIFY(TrainPreset::parse(R"({"model": "lstm"})", "r.json").expected.empty());
        const auto translation = TrainPreset::parse(R"({"expected": {"metric": "bleu", "mean": 59.6, "std": 0.7, "runs": 3, "source": "x"}})", "t.json");
        QCOMPARE(QString::fromStdString(translation.expected.text()), QString::fromUtf8("59.6 \u00b1 0.7 test BLEU (3 runs)"));
        const auto refused = [](const char* json, const char* words) {
            try {
                TrainPreset::parse(json, "p.json");
                QFAIL(json);
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString(e.what()).startsWith("p.json: ") && QString(e.what()).contains(words), e.what());
            }
        };
        refused(R"({"expected": {"metric": "f1", "mean": 1, "std": 0, "runs": 1, "source": "x"}})", "'expected.metric'");
        refused(R"({"expected": {"metric": "accuracy", "mean": 143, "std": 0, "runs": 1, "source": "x"}})", "0 to 100");
        refused(R"({"expected": {"metric": "bleu", "mean": 101, "std": 0, "runs": 1, "source": "x"}})", "a BLEU score (0 to 100)");
        refused(R"({"expected": {"metric": "accuracy", "mean": 43, "std": 0, "runs": 0, "source": "x"}})", "'expected.runs'");
        refused(R"({"expected": {"metric": "accuracy", "mean": 43, "std": -1, "runs": 1, "source": "x"}})", "'expected.std'");
        refused(R"({"expected": {"metric": "accuracy", "mean": 43, "std": 1, "runs": 1}})", "'expected.source'");
        refused(R"({"expected": {"metric": "accuracy", "mean": 43, "std": 1, "runs": 1, "source": "x", "seed": 1}})", "'expected.seed'");

        const auto lesson = [](const char* real) {
            return std::string(R"({"title": "T", "description": "D", "lesson": "L",
                "presets": ["teach-san-vs-rnn-ssan-rpr", "teach-san-vs-rnn-lstm"])") + real + "}";
        };
        const auto s = TeachingScenario::parse(lesson(R"(, "real_data": {"title": "T on SST", "lesson": "as measured",
            "presets": ["repro-sst-fine-ssan-rpr", "repro-sst-fine-lstm"]})"), "s.json");
        QCOMPARE(s.realPresets.size(), std::size_t(2));
        QCOMPARE(s.realPresets[1]->expected.mean, 44.0);
        QVERIFY(TeachingScenario::parse(lesson(""), "s.json").realPresets.empty());
        const auto refusedLesson = [&](const char* real, const char* words) {
            try {
                TeachingScenario::parse(lesson(real), "s.json");
                QFAIL(real);
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString(e.what()).startsWith("s.json: ") && QString(e.what()).contains(words), e.what());
            }
        };
        refusedLesson(R"(, "real_data": {"title": "T", "lesson": "L", "presets": ["repro-sst-fine-lstm", "nope"]})", "unknown preset \"nope\" in 'real_data.presets'");
        refusedLesson(R"(, "real_data": {"title": "T", "lesson": "L", "presets": ["repro-sst-fine-lstm"]})", "2 to 4");
        refusedLesson(R"(, "real_data": {"title": "T", "presets": ["repro-sst-fine-lstm", "repro-sst-fine-ssan"]})", "'real_data.lesson'");
        refusedLesson(R"(, "real_data": {"title": "T", "lesson": "L", "presets": ["repro-sst-fine-lstm", "repro-sml2010-narx"]})", "one dataset");
        refusedLesson(R"(, "opens": "timeline")", "'opens' must be \"faithfulness\", \"explorer\" or \"compare\"");
        QCOMPARE(TeachingScenario::parse(lesson(R"(, "opens": "explorer")"), "s.json").opens, std::string("explorer"));
        QCOMPARE(TeachingScenario::parse(lesson(R"(, "opens": "faithfulness")"), "s.json").opens, std::string("faithfulness"));
        QCOMPARE(TeachingScenario::parse(lesson(R"(, "opens": "compare")"), "s.json").opens, std::string("compare"));
        // A lesson that explores a pretrained model instead of training presets.
        const auto exploring = [](const char* explore) {
            return std::string(R"({"title": "T", "description": "D", "lesson": "L", "explore": )") + explore + "}";
        };
        const auto e = TeachingScenario::parse(
            exploring(
                R"({"model": "smollm2-135m", "view": "copy", "prompt": "a b a", "ablate": "19.7, 18.4", "ablation": "mean", "measure": true})"),
            "x.json");
        QVERIFY(e.presets.empty() && e.explore);
        QCOMPARE(e.explore->viewIndex(), 3);
        QCOMPARE(e.explore->ablate, std::string("19.7,18.4"));
        QVERIFY(e.explore->ablateMean && e.explore->measureCopying);
        QCOMPARE(TeachingScenario::parse(exploring(R"({"model": "m", "view": "heads", "prompt": "p"})"), "x.json")
                     .explore->ablate,
                 std::string());
        const auto refusedExploring = [&](const std::string& json, const char* words) {
            try {
                TeachingScenario::parse(json, "x.json");
                QFAIL(json.c_str());
            } catch (const std::invalid_argument& error) {
                QVERIFY2(QString(error.what()).startsWith("x.json: ") && QString(error.what()).contains(words),
                         error.what());
            }
        };
        refusedExploring(exploring(R"({"model": "m", "view": "grid", "prompt": "p"})"), "'explore.view' must be");
        refusedExploring(exploring(R"({"model": "m", "view": "heads"})"), "'explore.prompt' is missing");
        refusedExploring(exploring(R"({"model": "m", "view": "heads", "prompt": "p", "ablate": "19"})"),
                         "'explore.ablate': '19' is not LAYER.HEAD");
        refusedExploring(exploring(R"({"model": "m", "view": "heads", "prompt": "p", "ablate": "1.1,1.1"})"),
                         "'explore.ablate'");
        refusedExploring(exploring(R"({"model": "m", "view": "heads", "prompt": "p", "ablation": "half"})"),
                         "'explore.ablation' must be");
        refusedExploring(exploring(R"({"model": "m", "view": "heads", "prompt": "p", "temperature": 2})"),
                         "'explore.temperature' is not a setting");
        refusedExploring(exploring(R"({"model": "m", "view": "heads", "prompt": "p"}, "opens": "compare")"),
                         "'opens' belongs to a lesson that trains");
        refusedExploring(exploring(R"("heads")"), "'explore' must be an object");
        refusedExploring(R"({"title": "T", "description": "D", "lesson": "L"})", "either 'presets'");
        refusedExploring(
            R"({"title": "T", "description": "D", "lesson": "L", "presets": ["teach-san-vs-rnn-lstm", "teach-san-vs-rnn-ssan-rpr"],
            "explore": {"model": "m", "view": "heads", "prompt": "p"}})",
            "either 'presets'");
        // The shipped lessons: SAN vs RNN and Why position matters have a real-data variant whose presets say what they reached.
        for (const char* id : {"san-vs-rnn", "why-position-matters"}) {
            const TeachingScenario* shipped = TeachingScenario::find(id);
            QVERIFY2(shipped && !shipped->realPresets.empty(), id);
            for (const TrainPreset* p : shipped->realPresets)
                QVERIFY2(!p->expected.empty() && p->expected.metric == "accuracy", p->name.c_str());
        }
    }

    // The settings round-trip through the JSON config only when they are not the default, so the stored
    // configuration of a run that never met them stays what it was.
    void settingsInTheConfig()
    {
        TrainConfig c;
        QVERIFY(!QString::fromStdString(c.toJson()).contains("missing_values"));
        c.missingValues = "interpolate";
        c.quoting = "off";
        c.categorical = "onehot";
        const auto back = TrainConfig::fromJson(c.toJson());
        QCOMPARE(back.missingValues, std::string("interpolate"));
        QCOMPARE(back.quoting, std::string("off"));
        QCOMPARE(back.categorical, std::string("onehot"));
        QVERIFY(TrainConfig::unknownKeys(R"({"missing_values":"drop","quoting":"on","categorical":"skip"})").empty());
        c.missingValues = "zero";
        QCOMPARE(QString::fromStdString(c.validate()), QString("missing_values: unknown 'zero' (known: error, drop, ffill, interpolate)"));
    }

    // How the data is made or read (the designer's own-data and lesson settings) is part of the stored
    // configuration, reaches the dataset options, and is absent from the JSON while it is the default.
    void datasetKeysInTheConfig()
    {
        const TrainConfig defaults;
        for (const char* key : {"order_dependent", "distance", "file", "text_column", "delimiter", "header", "window", "lag", "drivers"}) {
            QVERIFY2(!QString::fromStdString(defaults.toJson()).contains(QString("\"%1\"").arg(key)), key);
            QVERIFY2(QString::fromStdString(defaults.toJson(true)).contains(QString("\"%1\"").arg(key)), key);
        }
        TrainConfig c;
        c.dataset = "csv-series";
        c.model.model = "essan"; // a time-series model: the model is checked against the data's task first
        c.file = "/data/air.csv";
        c.targetColumn = "CO";
        c.driverColumns = {"T", "RH"};
        c.delimiter = "tab";
        c.header = 1;
        c.window = 24;
        c.orderDependent = true;
        c.distance = 7;
        c.lowercase = true;
        c.tokenizer = "tweet";
        const TrainConfig back = TrainConfig::fromJson(c.toJson());
        QCOMPARE(back.toJson(), c.toJson());
        const DatasetOptions o = back.datasetOptions();
        QCOMPARE(o.file, std::string("/data/air.csv"));
        QCOMPARE(o.targetColumn, std::string("CO"));
        QCOMPARE(o.driverColumns, (std::vector<std::string>{"T", "RH"}));
        QCOMPARE(o.delimiter, '\t');
        QCOMPARE(o.header, 1);
        QCOMPARE(o.window, 24);
        QVERIFY(o.orderDependent);
        QCOMPARE(o.distance, 7);
        QVERIFY(o.lowercase);
        QCOMPARE(o.tokenizer, std::string("tweet"));
        QVERIFY(TrainConfig::unknownKeys(c.toJson()).empty());
        c.delimiter = "ab";
        QVERIFY(QString::fromStdString(c.validate()).startsWith("delimiter:"));
        c.delimiter = ";";
        QCOMPARE(c.datasetOptions().delimiter, ';');
        c.window = 0;
        QVERIFY(QString::fromStdString(c.validate()).startsWith("window:"));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "test_bad_input.moc"
