// The analyst's engine (core/analysis): run fields, config diffs, the results matrix with hand-computed
// means and stds, thesis references, and tables written as CSV, Markdown and LaTeX that read back.
#include "core/analysis/ConfigDiff.h"
#include "core/analysis/ResultsMatrix.h"
#include "core/analysis/RunField.h"
#include "core/analysis/TableWriter.h"
#include "core/analysis/ThesisReference.h"
#include "core/config/TrainConfig.h"
#include "tests/support/SampleStatistics.h"

#include <nlohmann/json.hpp>

#include <QtCore/QRegularExpression>
#include <QtCore/QStringList>
#include <QtTest/QtTest>

#include <cmath>

using namespace attnlab;

namespace {

RunRecord classified(std::int64_t id, const std::string& dataset, const std::string& model, const std::string& position,
                     double test, std::uint64_t seed = 1, int dModel = 100)
{
    TrainConfig c;
    c.dataset = dataset;
    c.model.model = model;
    c.model.position = position;
    c.model.dModel = dModel;
    c.seed = seed;
    RunRecord r;
    r.id = id;
    r.dataset = dataset;
    r.model = model;
    r.position = position;
    r.seed = seed;
    r.configJson = c.toJson();
    r.status = RunStatus::Completed;
    r.testAccuracy = test;
    r.bestDevAccuracy = test + 0.01;
    r.testMacroF1 = test - 0.05;
    r.bestStep = 100;
    return r;
}

using attnlab::testing::sampleStd;

// "48.1 ± 0.4 (5)" -> {48.1, 0.4, 5}; "48.1 (1)" -> {48.1, 0, 1}.
std::vector<double> numbersIn(const QString& cell)
{
    std::vector<double> out;
    static const QRegularExpression number(QStringLiteral("-?[0-9]+(\\.[0-9]+)?"));
    auto it = number.globalMatch(cell);
    while (it.hasNext())
        out.push_back(it.next().captured().toDouble());
    return out;
}

} // namespace

class AnalysisTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fieldsReadRecordConfigAndSeveralKeys()
    {
        const RunRecord r = classified(1, "sst-fine", "ssan", "rpr", 0.45, 7);
        QCOMPARE(RunField::text(r, "model"), std::string("ssan"));
        QCOMPARE(RunField::text(r, "seed"), std::string("7"));
        QCOMPARE(RunField::text(r, "d_model"), std::string("100"));
        QCOMPARE(RunField::text(r, "optimizer"), std::string("adam"));
        QCOMPARE(RunField::text(r, "model, position"), std::string("ssan / rpr"));
        QCOMPARE(RunField::text(r, "no_such_key"), std::string());
        QCOMPARE(*RunField::metric(r, "test"), 0.45);
        QCOMPARE(*RunField::metric(r, "test_macro_f1"), 0.40);
        QVERIFY(!RunField::metric(r, "test_rmse")); // a classification run has no RMSE
        RunRecord failed = r;
        failed.status = RunStatus::Failed;
        QVERIFY(!RunField::metric(failed, "test")); // only completed runs have results
        RunRecord bench = r;
        bench.bestStep = 0;
        QVERIFY(!RunField::metric(bench, "test"));  // never evaluated: no result rather than a zero
        QCOMPARE(*RunField::metric(bench, "params"), 0.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RunField::metric(r, "test_acuracy"));
        RunRecord regression = r;
        regression.regression = true;
        regression.testRmse = 0.02;
        QCOMPARE(*RunField::metric(regression, "test"), 0.02);
        QVERIFY(!RunField::higherIsBetter("test", true));
        QVERIFY(RunField::higherIsBetter("test", false));
    }

    void diffListsExactlyTheDifferingKeys()
    {
        RunRecord a = classified(1, "sst-fine", "ssan", "rpr", 0.4, 1);
        RunRecord b = classified(2, "sst-fine", "ssan", "none", 0.4, 2);
        RunRecord c = classified(3, "sst-fine", "ssan", "rpr", 0.4, 1);
        auto cfg = nlohmann::json::parse(c.configJson);
        cfg["learning_rate"] = 0.5;
        c.configJson = cfg.dump();
        const auto diffs = ConfigDiff::of({a, b, c});
        QStringList keys;
        for (const auto& d : diffs)
            keys << QString::fromStdString(d.key);
        QCOMPARE(keys, (QStringList{"learning_rate", "position", "seed"}));
        QCOMPARE(diffs[1].values, (std::vector<std::string>{"rpr", "none", "rpr"}));
        QCOMPARE(diffs[0].values[2], std::string("0.5"));
        QVERIFY(ConfigDiff::of({a, c}).size() == 1);
        QVERIFY(ConfigDiff::of({a}).empty());

        // A key one run lacks differs; nested environment objects are compared key by key.
        a.environmentJson = R"({"device":"cpu","files":{"train":"aa","dev":"bb"}})";
        b.environmentJson = R"({"device":"cpu","files":{"train":"aa","dev":"cc"},"cpu":"x"})";
        const auto env = ConfigDiff::of({a, b}, ConfigDiff::Source::Environment);
        QCOMPARE(env.size(), std::size_t(2));
        QCOMPARE(env[0].key, std::string("cpu"));
        QCOMPARE(env[0].values, (std::vector<std::string>{"", "x"}));
        QCOMPARE(env[1].key, std::string("files.dev"));
        QCOMPARE(ConfigDiff::keyCount({a, b}, ConfigDiff::Source::Environment), std::size_t(4));
    }

    void matrixCellsAreMeanStdAndCountOfCompletedRuns()
    {
        std::vector<RunRecord> runs = {
            classified(1, "sst-fine", "ssan", "rpr", 0.40, 1), classified(2, "sst-fine", "ssan", "rpr", 0.44, 2),
            classified(3, "sst-fine", "ssan", "rpr", 0.45, 3), classified(4, "opener", "ssan", "rpr", 0.80, 1),
            classified(5, "sst-fine", "lstm", "none", 0.43, 1), classified(6, "sst-fine", "lstm", "none", 0.47, 2),
            classified(7, "opener", "lstm", "none", 0.82, 1),   classified(8, "semeval2013", "lstm", "none", 0.6, 1),
        };
        RunRecord failed = classified(9, "sst-fine", "ssan", "rpr", 0.99, 4);
        failed.status = RunStatus::Failed; // must not count
        runs.push_back(failed);

        const auto m = ResultsMatrix::build(runs, {});
        QCOMPARE(m.rowLabels(), (std::vector<std::string>{"lstm", "ssan"}));
        QCOMPARE(m.columnLabels(), (std::vector<std::string>{"opener", "semeval2013", "sst-fine"}));
        QCOMPARE(m.runsUsed(), 8);
        const MatrixCell& ssanFine = m.cell(1, 2);
        QCOMPARE(ssanFine.n, 3);
        QVERIFY(std::abs(ssanFine.mean - (0.40 + 0.44 + 0.45) / 3) < 1e-12);
        QVERIFY(std::abs(ssanFine.std - sampleStd({0.40, 0.44, 0.45})) < 1e-12);
        QCOMPARE(m.cell(0, 2).n, 2);
        QVERIFY(std::abs(m.cell(0, 2).mean - 0.45) < 1e-12);
        QCOMPARE(m.cell(1, 1).n, 0); // ssan has no semeval run
        // Best per column: lstm on sst-fine (0.45 > 0.43) and opener (0.82 > 0.80).
        QVERIFY(m.cell(0, 2).best && !m.cell(1, 2).best);
        QVERIFY(m.cell(0, 0).best && !m.cell(1, 0).best);
        // Macro-average only for the row with every column: lstm = mean of its three cell means.
        QVERIFY(m.hasAverage());
        QCOMPARE(m.average(0).n, 3);
        QVERIFY(std::abs(m.average(0).mean - (0.82 + 0.6 + 0.45) / 3) < 1e-12);
        QCOMPARE(m.average(1).n, 0);

        // Lower is better for RMSE: the smaller mean is the best.
        RunRecord r1 = classified(10, "sml2010", "essan", "rpr", 0), r2 = classified(11, "sml2010", "darnn", "none", 0);
        r1.regression = r2.regression = true;
        r1.testRmse = 0.019;
        r2.testRmse = 0.020;
        const auto reg = ResultsMatrix::build({r1, r2}, {"model", "dataset", "test_rmse", true});
        QVERIFY(!reg.higherIsBetter());
        QVERIFY(reg.cell(1, 0).best); // essan (rows sorted: darnn, essan)
        QVERIFY(!reg.hasAverage());   // one column: nothing to average
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ResultsMatrix::build(runs, {"model", "dataset", "acc", true}));
    }

    void thesisReferencesMatchTheConfiguration()
    {
        const auto& refs = ThesisReference::builtIn();
        QVERIFY(refs.size() > 200);
        const RunRecord ssan100 = classified(1, "sst-fine", "ssan", "rpr", 0.4, 1, 100);
        const auto v = refs.find(RunField::flatConfig(ssan100), "test", false);
        QVERIFY(v);
        QCOMPARE(v->table, std::string("5.3"));
        QCOMPARE(v->label, std::string("1-layer SSAN + RPR (100)"));
        QVERIFY(std::abs(v->value - 0.446) < 1e-12);
        QVERIFY(std::abs(v->std - 0.003) < 1e-12);
        const RunRecord lstm300 = classified(1, "semeval2013", "lstm", "none", 0.4, 1, 300);
        QVERIFY(std::abs(refs.find(RunField::flatConfig(lstm300), "test_accuracy", false)->value - 0.676) < 1e-12);
        // The thesis has no 64-dimensional SSAN and no synthetic data: nothing is invented.
        QVERIFY(!refs.find(RunField::flatConfig(classified(1, "sst-fine", "ssan", "rpr", 0.4, 1, 64)), "test", false));
        QVERIFY(!refs.find(RunField::flatConfig(classified(1, "synthetic-sentiment", "ssan", "rpr", 0.4)), "test", false));

        // The matrix shows them in their own rows, never in ours.
        const auto m = ResultsMatrix::build({ssan100}, {"model,position", "dataset", "test", true});
        const TableDocument t = m.table(1, true);
        QCOMPARE(t.rows.size(), std::size_t(2));
        QCOMPARE(t.rows[0][1].text, std::string("40.0 (1)"));
        QCOMPARE(t.rows[1][0].text, std::string("thesis: 1-layer SSAN + RPR (100)"));
        QCOMPARE(t.rows[1][1].text, std::string("44.6 \xC2\xB1 0.3 (5)"));
    }

    void topIsTheBestSingleRunBesideTheMean()
    {
        const std::vector<RunRecord> runs = {
            classified(1, "sst-fine", "ssan", "rpr", 0.40, 1),  classified(2, "sst-fine", "ssan", "rpr", 0.44, 2),
            classified(3, "sst-fine", "ssan", "rpr", 0.45, 3),  classified(4, "sst-fine", "lstm", "none", 0.43, 1),
            classified(5, "sst-fine", "lstm", "none", 0.47, 2),
        };
        ResultsMatrix::Options options;
        options.top = true;
        const auto m = ResultsMatrix::build(runs, options);
        QVERIFY(std::abs(m.cell(0, 0).top - 0.47) < 1e-12); // lstm: the higher accuracy
        QVERIFY(std::abs(m.cell(1, 0).top - 0.45) < 1e-12); // ssan
        QVERIFY(m.cell(0, 0).bestTop && !m.cell(1, 0).bestTop);
        QVERIFY(m.cell(0, 0).best); // lstm's mean 0.45 beats ssan's 0.43
        const TableDocument t = m.table(1, false);
        QCOMPARE(t.header, (std::vector<std::string> {"model", "sst-fine top", "sst-fine"}));
        QCOMPARE(t.rows[1][1].text, std::string("45.0"));
        QVERIFY(!t.rows[1][1].bold && t.rows[0][1].bold);
        QCOMPARE(numbersIn(QString::fromStdString(t.rows[1][2].text))[0], 43.0);
        QVERIFY(QString::fromStdString(t.caption).contains(QStringLiteral("top: the best single run")));
        const QString tex = QString::fromStdString(TableWriter::latex(t));
        QVERIFY(tex.contains(QStringLiteral("\\begin{tabular}{lrr}")));
        QVERIFY(tex.contains(QStringLiteral("\\textbf{47.0}")));
        const auto json = nlohmann::json::parse(m.toJson());
        QVERIFY(std::abs(json["cells"][1][0]["top"].get<double>() - 0.45) < 1e-12);
        // Without the option the table is as before: one column a dataset.
        QCOMPARE(ResultsMatrix::build(runs, {}).table(1, false).header.size(), std::size_t(2));

        // An error's top is the lowest: essan's best run 0.019 although darnn has the better mean.
        RunRecord e1 = classified(10, "sml2010", "essan", "rpr", 0),
                  e2 = classified(11, "sml2010", "essan", "rpr", 0, 2),
                  d1 = classified(12, "sml2010", "darnn", "none", 0);
        e1.regression = e2.regression = d1.regression = true;
        e1.testRmse = 0.019;
        e2.testRmse = 0.025;
        d1.testRmse = 0.020;
        options.metric = "test_rmse";
        const auto reg = ResultsMatrix::build({e1, e2, d1}, options);
        QVERIFY(std::abs(reg.cell(1, 0).top - 0.019) < 1e-12);
        QVERIFY(reg.cell(1, 0).bestTop && !reg.cell(1, 0).best);
        QVERIFY(reg.cell(0, 0).best && !reg.cell(0, 0).bestTop);
        QCOMPARE(reg.formatTop(reg.cell(1, 0), 4), std::string("0.0190"));

        // The thesis' Top of Table 5.6 in its row: ESSAN on phrase-level SST-fine, top 52.7 beside 51.5 ± 0.8 (5).
        TrainConfig c;
        c.dataset = "sst-fine";
        c.model.model = "essan";
        c.model.position = "rpr";
        c.phrases = true;
        RunRecord essan = classified(20, "sst-fine", "essan", "rpr", 0.5);
        essan.configJson = c.toJson();
        options.metric = "test";
        const TableDocument withThesis = ResultsMatrix::build({essan}, options).table(1, true);
        QCOMPARE(withThesis.rows.size(), std::size_t(2));
        QCOMPARE(withThesis.rows[1][0].text, std::string("thesis: ESSAN (phrase-level, GloVe 300d)"));
        QCOMPARE(withThesis.rows[1][1].text, std::string("52.7"));
        QCOMPARE(withThesis.rows[1][2].text, std::string("51.5 \xC2\xB1 0.8 (5)"));
    }

    void tablesReadBackToTheSameNumbers()
    {
        std::vector<RunRecord> runs;
        const double fine[] = {0.401, 0.442, 0.455}, opener[] = {0.8, 0.812};
        for (int i = 0; i < 3; ++i) runs.push_back(classified(i + 1, "sst-fine", "ssan", "rpr", fine[i], i));
        for (int i = 0; i < 2; ++i) runs.push_back(classified(i + 9, "opener", "ssan", "rpr", opener[i], i));
        for (int i = 0; i < 2; ++i) runs.push_back(classified(i + 20, "sst-fine", "cnn", "none", 0.39 + 0.01 * i, i));
        runs.push_back(classified(30, "opener", "cnn", "none", 0.79, 1));
        const auto m = ResultsMatrix::build(runs, {});
        const TableDocument t = m.table(2, false);
        const std::string ssanFine = m.format(m.cell(1, 1), 2);
        QCOMPARE(numbersIn(QString::fromStdString(ssanFine))[0], std::round((0.401 + 0.442 + 0.455) / 3 * 10000) / 100);
        QCOMPARE(numbersIn(QString::fromStdString(ssanFine))[1], std::round(sampleStd({0.401, 0.442, 0.455}) * 10000) / 100);
        QCOMPARE(numbersIn(QString::fromStdString(ssanFine))[2], 3.0);

        // CSV: RFC 4180 rows; every cell's text comes back unchanged (quoted where it has a comma).
        const QString csv = QString::fromStdString(TableWriter::csv(t));
        const QStringList lines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QStringLiteral("model,opener,sst-fine,macro-average"));
        QVERIFY(lines[2].startsWith(QStringLiteral("ssan,")));
        QCOMPARE(lines[2].split(QLatin1Char(','))[2], QString::fromStdString(ssanFine));

        // Markdown: a pipe table, right-aligned numbers, the best cell in bold, same numbers.
        const QString md = QString::fromStdString(TableWriter::markdown(t));
        QVERIFY(md.contains(QStringLiteral("| --- | ---: | ---: | ---: |")));
        const QStringList mdRows = md.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QString ssanRow = mdRows.filter(QStringLiteral("| ssan |")).value(0);
        QVERIFY(ssanRow.contains(QStringLiteral("**") + QString::fromStdString(ssanFine) + QStringLiteral("**")));
        QCOMPARE(numbersIn(ssanRow.split(QLatin1Char('|'))[3]), numbersIn(QString::fromStdString(ssanFine)));

        // LaTeX: booktabs rules, ± as $\pm$, bold as \textbf, underscores escaped, same numbers.
        TableDocument withUnderscore = t;
        withUnderscore.rows[0][0].text = "cnn_small & 100%";
        const QString tex = QString::fromStdString(TableWriter::latex(withUnderscore));
        QVERIFY(tex.contains(QStringLiteral("\\toprule")) && tex.contains(QStringLiteral("\\midrule")) &&
                tex.contains(QStringLiteral("\\bottomrule")));
        QVERIFY(tex.contains(QStringLiteral("\\begin{tabular}{lrrr}")));
        QVERIFY(tex.contains(QStringLiteral("cnn\\_small \\& 100\\%")));
        const QString texRow = tex.split(QLatin1Char('\n')).filter(QStringLiteral("ssan &")).value(0);
        QVERIFY(texRow.contains(QStringLiteral("\\textbf{")));
        QVERIFY(texRow.contains(QStringLiteral("$\\pm$")));
        QCOMPARE(numbersIn(texRow.split(QLatin1Char('&'))[2]), numbersIn(QString::fromStdString(ssanFine)));

        QVERIFY(TableWriter::parseFormat("md") == TableWriter::Format::Markdown);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TableWriter::parseFormat("xlsx"));
    }
};

QTEST_APPLESS_MAIN(AnalysisTest)
#include "test_analysis.moc"
