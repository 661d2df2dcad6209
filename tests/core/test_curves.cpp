// The compare view's arithmetic, checked against numbers worked out by hand: TensorBoard's de-biased
// EMA (CurveSmoothing), the mean ± sample std of a group's curves and the step -> epoch mapping
// (CurveBand), and the store's batched read of one metric of many runs (RunStore::curves).
#include "core/analysis/CurveBand.h"
#include "core/analysis/CurveSmoothing.h"
#include "core/store/RunStore.h"
#include "tests/support/StoreFixtures.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace attnlab;

namespace {

void compareValues(const std::vector<double>& actual, const std::vector<double>& expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        if (std::isnan(expected[i])) {
            QVERIFY2(std::isnan(actual[i]), qPrintable(QString("index %1").arg(i)));
            continue;
        }
        QVERIFY2(std::abs(actual[i] - expected[i]) < 1e-12,
                 qPrintable(QString("index %1: %2 != %3").arg(i).arg(actual[i], 0, 'g', 17).arg(expected[i], 0, 'g', 17)));
    }
}

} // namespace

class TestCurves : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smoothingMatchesTensorBoard()
    {
        // w = 0.5 on 1, 2, 3: EMA 0.5, 1.25, 2.125 divided by 1 - 0.5^k = 0.5, 0.75, 0.875.
        compareValues(CurveSmoothing::exponential({1, 2, 3}, 0.5), {1.0, 5.0 / 3.0, 17.0 / 7.0});
        // w = 0.6 on 0.9, 0.6, 0.5: EMA 0.36, 0.456, 0.4736 over 0.4, 0.64, 0.784.
        compareValues(CurveSmoothing::exponential({0.9, 0.6, 0.5}, 0.6), {0.9, 0.7125, 0.4736 / 0.784});
    }

    void smoothingEdgeCases()
    {
        const std::vector<double> values{3.0, -1.0, 4.0, 1.5};
        compareValues(CurveSmoothing::exponential(values, 0.0), values); // weight 0 is the identity
        compareValues(CurveSmoothing::exponential({2, 2, 2, 2}, 0.9), {2, 2, 2, 2}); // constant stays constant
        compareValues(CurveSmoothing::exponential({}, 0.9), {});
        // A NaN passes through and is not counted: the third value is de-biased as the second finite one.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        compareValues(CurveSmoothing::exponential({1, nan, 3}, 0.5), {1.0, nan, 1.75 / 0.75});
        const auto withInf = CurveSmoothing::exponential({1, std::numeric_limits<double>::infinity(), 3}, 0.5);
        QVERIFY(std::isinf(withInf[1]));
        QCOMPARE(withInf[2], 1.75 / 0.75);
        bool threw = false;
        try {
            CurveSmoothing::exponential({1, 2}, 1.0);
        } catch (const std::invalid_argument&) {
            threw = true;
        }
        QVERIFY(threw);
    }

    void bandIsMeanAndSampleStd()
    {
        // Three runs; the third also logged step 20, which the others did not.
        const std::vector<std::vector<CurvePoint>> curves{
            {{0, 0.9}, {10, 0.6}},
            {{0, 1.0}, {10, 0.7}},
            {{0, 0.8}, {10, 0.5}, {20, 0.4}},
        };
        const auto band = CurveBand::of(curves);
        QCOMPARE(band.size(), std::size_t(3));
        QCOMPARE(band[0].x, 0.0);
        QCOMPARE(band[0].n, 3);
        QVERIFY(std::abs(band[0].mean - 0.9) < 1e-12);
        QVERIFY(std::abs(band[0].std - 0.1) < 1e-12); // sqrt((0 + 0.01 + 0.01) / 2)
        QVERIFY(std::abs(band[1].mean - 0.6) < 1e-12);
        QVERIFY(std::abs(band[1].std - 0.1) < 1e-12);
        QCOMPARE(band[2].x, 20.0);
        QCOMPARE(band[2].n, 1);
        QCOMPARE(band[2].mean, 0.4);
        QCOMPARE(band[2].std, 0.0);
        // Two values 1 and 3: mean 2, sample std sqrt(2); a NaN is left out.
        const auto two = CurveBand::of({{{5, 1.0}}, {{5, 3.0}}, {{5, std::numeric_limits<double>::quiet_NaN()}}});
        QCOMPARE(two.size(), std::size_t(1));
        QCOMPARE(two[0].n, 2);
        QCOMPARE(two[0].mean, 2.0);
        QVERIFY(std::abs(two[0].std - std::sqrt(2.0)) < 1e-12);
    }

    void remapInterpolatesBetweenKnownSteps()
    {
        // Epochs known at steps 10 (0.25) and 30 (0.75): step 20 is half way, 0 and 40 take the nearest.
        const std::vector<CurvePoint> epochs{{10, 0.25}, {30, 0.75}};
        const auto mapped = CurveBand::remap({{0, 1.0}, {10, 2.0}, {20, 3.0}, {30, 4.0}, {40, 5.0}}, epochs);
        QCOMPARE(mapped.size(), std::size_t(5));
        const double xs[] = {0.25, 0.25, 0.5, 0.75, 0.75};
        const double values[] = {1, 2, 3, 4, 5};
        for (int i = 0; i < 5; ++i) {
            QVERIFY(std::abs(mapped[i].x - xs[i]) < 1e-12);
            QCOMPARE(mapped[i].value, values[i]); // values untouched
        }
        // No axis known: unchanged.
        const auto same = CurveBand::remap({{7, 1.5}}, {});
        QCOMPARE(same.size(), std::size_t(1));
        QCOMPARE(same[0].x, 7.0);
    }

    void storeReadsOneMetricOfManyRuns()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto a = store.beginRun(testing::infoFor("synthetic-sentiment", "ssan", "rpr", 1));
        const auto b = store.beginRun(testing::infoFor("synthetic-sentiment", "lstm", "none", 2));
        const auto c = store.beginRun(testing::infoFor("synthetic-sentiment", "lstm", "none", 3));
        // Appended out of step order and mixed with other metrics: read back by step, this metric only.
        store.appendMetrics(a, {{20, "train", "loss", 0.5}, {10, "train", "loss", 0.75}, {10, "dev", "loss", 0.7},
                                {10, "train", "accuracy", 0.6}, {30, "train", "loss", 0.25}});
        store.appendMetrics(b, {{10, "dev", "accuracy", 0.5}});
        store.appendMetrics(c, {{5, "train", "loss", 1.5}});
        const auto curves = store.curves({b, a, 999, c, a}, "train", "loss");
        QCOMPARE(curves.size(), std::size_t(5));
        QVERIFY(curves[0].empty()); // b has no train loss
        const std::vector<std::pair<int, double>> expectedA{{10, 0.75}, {20, 0.5}, {30, 0.25}};
        QCOMPARE(curves[1], expectedA);
        QVERIFY(curves[2].empty()); // no such run
        QCOMPARE(curves[3], (std::vector<std::pair<int, double>>{{5, 1.5}}));
        QCOMPARE(curves[4], expectedA); // a run asked for twice gets its curve twice
        QVERIFY(store.curves({}, "train", "loss").empty());
        // The same as the one-run read.
        QCOMPARE(store.curves({a}, "dev", "loss").front(), store.metricSeries(a, "dev", "loss"));
    }

    // Forty runs are read in two halves on two connections at once: every run still gets its own curve,
    // in the order asked, a run asked for in both halves included, and a write made just before is seen.
    void manyRunsReadInTwoHalvesGiveEachItsCurve()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        std::vector<std::int64_t> ids;
        for (int r = 0; r < 40; ++r) {
            ids.push_back(store.beginRun(testing::infoFor("synthetic-sentiment", "ssan", "rpr", r)));
            std::vector<MetricPoint> points;
            for (int step = 1; step <= 5 + r; ++step)
                points.push_back({step, "train", "loss", r + step / 100.0});
            store.appendMetrics(ids.back(), points);
        }
        std::vector<std::int64_t> asked = ids;
        std::reverse(asked.begin(), asked.end());
        asked.push_back(ids[39]); // first in the list and last: one in each half
        asked.insert(asked.begin() + 7, 12345); // not a run
        const auto curves = store.curves(asked, "train", "loss");
        QCOMPARE(curves.size(), asked.size());
        for (std::size_t i = 0; i < asked.size(); ++i) {
            if (asked[i] == 12345) {
                QVERIFY(curves[i].empty());
                continue;
            }
            const int r = static_cast<int>(std::find(ids.begin(), ids.end(), asked[i]) - ids.begin());
            QCOMPARE(curves[i].size(), std::size_t(5 + r));
            QCOMPARE(curves[i].back(), (std::pair<int, double>{5 + r, r + (5 + r) / 100.0}));
        }
        store.appendMetrics(ids[0], {{100, "train", "loss", 9.0}});
        QCOMPARE(store.curves(ids, "train", "loss").front().back(), (std::pair<int, double>{100, 9.0}));
    }
};

QTEST_GUILESS_MAIN(TestCurves)
#include "test_curves.moc"
