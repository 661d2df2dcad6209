// RunResult, the one wording of a run's result: classification in percent, regression as RMSE (never an
// accuracy), test figures only for completed runs, and the same keys in every JSON. Values by hand.
#include "core/config/TrainConfig.h"
#include "core/results/RunResult.h"
#include "core/results/RunRecord.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

using namespace attnlab;

namespace {

RunSummary classification()
{
    RunSummary s;
    s.status = RunStatus::Completed;
    s.steps = 600;
    s.seconds = 2.46;
    s.bestDevAccuracy = 0.8525;
    s.bestStep = 300;
    s.testAccuracy = 0.841;
    s.testMacroF1 = 0.83;
    s.testConfusion = {{3, 1}, {0, 4}};
    s.parameters = 23813;
    s.device = "cpu (2 threads)";
    return s;
}

RunSummary regression()
{
    RunSummary s;
    s.status = RunStatus::Completed;
    s.regression = true;
    s.steps = 400;
    s.seconds = 12.04;
    s.bestStep = 350;
    s.bestDevRmse = 0.08341;
    s.testMae = 0.0701;
    s.testRmse = 0.08342;
    s.testMape = 7.031;
    s.parameters = 1234567;
    return s;
}

} // namespace

class TestResults : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void classificationReadsAsPercent()
    {
        const RunResult r(classification());
        QVERIFY(r.hasResults() && r.hasTest());
        QCOMPARE(r.devValue(), 85.25);
        QCOMPARE(r.testValue(), 84.1);
        QCOMPARE(QString::fromStdString(r.devText(2)), QString("85.25%"));
        QCOMPARE(QString::fromStdString(r.testText(1)), QString("84.1%"));
        QCOMPARE(QString::fromStdString(r.headline()), QString("best dev 85.25% at step 300; test 84.10%, macro-F1 83.00%"));
        QCOMPARE(QString::fromStdString(r.sentence()),
                 QString("completed after 600 steps in 2.5 s: best dev 85.25% at step 300; test 84.10%, macro-F1 83.00%"));
        QCOMPARE(QString::fromStdString(r.brief()),
                 QString("completed · best dev 85.2% (step 300) · test 84.1% · 23,813 params · 2.5 s"));
        QCOMPARE(QString::fromStdString(r.testDetail()), QString("test accuracy 84.10%, macro-F1 83.00%"));
    }

    void regressionReadsAsRmseNeverAsAccuracy()
    {
        const RunResult r(regression());
        QVERIFY(r.hasResults() && r.hasTest());
        QCOMPARE(r.devValue(), 0.08341);
        QCOMPARE(r.testValue(), 0.08342);
        QCOMPARE(QString::fromStdString(r.devText(4)), QString("0.0834"));
        QCOMPARE(QString::fromStdString(r.headline()),
                 QString("best dev RMSE 0.0834 at step 350; test MAE 0.0701, RMSE 0.0834, MAPE 7.03%"));
        QCOMPARE(QString::fromStdString(r.brief()),
                 QString("completed · best dev RMSE 0.0834 (step 350) · test RMSE 0.0834 · 1,234,567 params · 12.0 s"));
        QCOMPARE(QString::fromStdString(r.testDetail()), QString("test RMSE 0.0834, MAE 0.0701, MAPE 7.03%"));
        // The bug this class exists for: a time-series run shown as "best dev 0.0%".
        for (const std::string& text : {r.headline(), r.sentence(), r.brief(), r.devText(1), r.testText(1)})
            QVERIFY2(text.find("0.0%") == std::string::npos, text.c_str());
    }

    void testOnlyForCompletedRuns()
    {
        // A cancelled run has a best dev step but its test set was never measured.
        RunSummary s = classification();
        s.status = RunStatus::Cancelled;
        s.testAccuracy = 0.0;
        const RunResult r(s);
        QVERIFY(r.hasResults());
        QVERIFY(!r.hasTest());
        QCOMPARE(QString::fromStdString(r.testText(1)), QString("-"));
        QCOMPARE(QString::fromStdString(r.headline()), QString("best dev 85.25% at step 300"));
        QVERIFY(QString::fromStdString(r.brief()).indexOf("test") < 0);
        // No evaluation yet (or a bench run): no result at all, and the message says why.
        RunSummary failed;
        failed.status = RunStatus::Failed;
        failed.message = "out of memory on cpu";
        const RunResult none(failed);
        QVERIFY(!none.hasResults());
        QCOMPARE(QString::fromStdString(none.devText(2)), QString("-"));
        QCOMPARE(QString::fromStdString(none.sentence()), QString("failed after 0 steps in 0.0 s (out of memory on cpu)"));
        QCOMPARE(QString::fromStdString(none.brief()), QString("failed · out of memory on cpu · 0.0 s"));
    }

    void jsonHasTheSameKeysEverywhere()
    {
        const auto c = nlohmann::json::parse(RunResult(classification()).toJson(true));
        QCOMPARE(c["best_dev_accuracy"].get<double>(), 0.8525);
        QCOMPARE(c["test_accuracy"].get<double>(), 0.841);
        QCOMPARE(c["test_macro_f1"].get<double>(), 0.83);
        QCOMPARE(c["test_confusion"][1][1].get<int>(), 4);
        QCOMPARE(c["params"].get<int>(), 23813);
        QCOMPARE(c["status"].get<std::string>(), std::string("completed"));
        QVERIFY(!c.contains("test_rmse"));
        QVERIFY(!nlohmann::json::parse(RunResult(classification()).toJson()).contains("test_confusion"));
        const auto r = nlohmann::json::parse(RunResult(regression()).toJson());
        QCOMPARE(r["best_dev_rmse"].get<double>(), 0.08341);
        QCOMPARE(r["test_mape"].get<double>(), 7.031);
        QVERIFY(r["regression"].get<bool>());
        QVERIFY(!r.contains("test_accuracy") && !r.contains("best_dev_accuracy"));
    }

    void aStoredRowReadsLikeTheLiveSummary()
    {
        RunRecord record;
        const RunSummary live = regression();
        record.status = live.status;
        record.regression = true;
        record.steps = live.steps;
        record.seconds = live.seconds;
        record.bestStep = live.bestStep;
        record.bestDevRmse = live.bestDevRmse;
        record.testMae = live.testMae;
        record.testRmse = live.testRmse;
        record.testMape = live.testMape;
        record.parameters = live.parameters;
        QCOMPARE(RunResult(record.summary()).brief(), RunResult(live).brief());
        QCOMPARE(RunResult(record.summary()).toJson(), RunResult(live).toJson());
    }

    void defaultLearningRates()
    {
        QCOMPARE(TrainConfig::defaultLearningRate("adam"), 1e-3);
        QCOMPARE(TrainConfig::defaultLearningRate("adadelta"), 1.0); // thesis 5.1.5, rho 0.95
        QCOMPARE(TrainConfig::defaultLearningRate("sgd"), 0.1);
    }
};

QTEST_GUILESS_MAIN(TestResults)
#include "test_results.moc"
