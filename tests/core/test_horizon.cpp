// Several steps ahead at once (a horizon H): the windows' targets aligned as stated, worked out by hand on a series
// 0, 1, 2, ...; every time-series model's output one value a step ahead; linear AR's direct strategy equal to H
// separate one-step fits; ARIMA's iterated forecast by hand; a run's errors per step ahead and their identity with
// the overall error; horizons that do not fit refused by name.
#include "core/config/Registry.h"
#include "core/config/TrainConfig.h"
#include "core/data/DataError.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/SeriesWindowBuilder.h"
#include "core/nn/models/ArimaRegressor.h"
#include "core/nn/models/LinearArRegressor.h"
#include "core/nn/models/ModelFactory.h"
#include "core/training/Trainer.h"

#include <QtTest/QtTest>

#include "tests/support/TinyRegressor.h"

#include <cmath>

using namespace attnlab;
using attnlab::testing::tinyRegressor;

namespace {

SeriesWindowBuilder::Input countingSeries(int rows, int window, int horizon, int trainRows, int devRows)
{
    SeriesWindowBuilder::Input in;
    in.id = in.name = "counting";
    in.source = "counting.csv";
    in.driverNames = {"x"};
    in.targetName = "y";
    for (int r = 0; r < rows; ++r) {
        in.drivers.push_back({static_cast<double>(2 * r)});
        in.target.push_back(static_cast<double>(r));
    }
    in.window = window;
    in.horizon = horizon;
    in.trainRows = trainRows;
    in.devRows = devRows;
    return in;
}

} // namespace

class TestHorizon : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Rows 0..29 of y = row; window 4, horizon 3, 15 train rows, 8 dev, 7 test. Row t's window knows y up to t - 1 and
    // predicts y_t, y_{t+1}, y_{t+2}; only windows whose three targets lie in their own split are kept.
    void multiStepTargetsAreAlignedAsStated()
    {
        const auto d = SeriesWindowBuilder::build(countingSeries(30, 4, 3, 15, 8));
        QCOMPARE(d.horizon, 3);
        QCOMPARE(d.firstTestRow, 23);
        QCOMPARE(d.train.size(), std::size_t(13)); // rows 0..12: row 12's targets are 12, 13, 14
        QCOMPARE(d.dev.size(), std::size_t(6));    // rows 15..20
        QCOMPARE(d.test.size(), std::size_t(5));   // rows 23..27: row 27's last target is row 29
        const auto scaled = [](double v) { return static_cast<float>(v / 14.0 * 0.75); }; // train min 0, max 14
        auto check = [&](const SeriesWindow& w, int t) {
            QCOMPARE(w.ahead.size(), std::size_t(3));
            for (int h = 0; h < 3; ++h)
                QCOMPARE(w.ahead[static_cast<std::size_t>(h)], scaled(t + h));
            QCOMPARE(w.target, scaled(t));
            // The history: rows t-3 .. t-1 (the first row repeated before the series), the unknown last = row t-1.
            for (int s = 0; s < 4; ++s) {
                const int row = s < 3 ? std::max(0, t - 3 + s) : std::max(0, t - 1);
                QCOMPARE(w.targetHistory[static_cast<std::size_t>(s)], scaled(row));
            }
        };
        check(d.train.front(), 0);
        check(d.train.back(), 12);
        check(d.dev.front(), 15);
        check(d.dev.back(), 20);
        check(d.test.front(), 23);
        check(d.test.back(), 27);
        // Horizon 1 is the one-step task as before: one window a row.
        const auto one = SeriesWindowBuilder::build(countingSeries(30, 4, 1, 15, 8));
        QCOMPARE(one.train.size() + one.dev.size() + one.test.size(), std::size_t(30));
        // A horizon longer than a split: refused, naming the setting and the split sizes.
        try {
            SeriesWindowBuilder::build(countingSeries(30, 4, 8, 15, 8));
            QFAIL("a horizon longer than the test split was accepted");
        } catch (const DataError& e) {
            QVERIFY2(QString(e.what()).contains("horizon: 8 steps ahead need that many rows in each split") &&
                         QString(e.what()).contains("15 train / 8 dev / 7 test"), e.what());
        }
        TrainConfig c;
        c.horizon = 0;
        QVERIFY(QString::fromStdString(c.validate()).startsWith("horizon: 1 to 1000"));
    }

    // Every model of the registry's time-series list answers [B, H]; persistence repeats the last value.
    void everyModelPredictsEveryStepAhead()
    {
        torch::manual_seed(3);
        const auto drivers = torch::randn({6, 5, 3});
        const auto history = torch::randn({6, 5});
        int models = 0;
        for (const auto& m : Registry::models()) {
            if (!m.servesTask(TaskKind::Regression))
                continue;
            auto model = ModelFactory::createRegressor(tinyRegressor(m.id, m.id == "essan" ? "rpr" : "none", 4));
            const auto out = model->forward(drivers, history);
            QVERIFY2(out.sizes() == torch::IntArrayRef({6, 4}), m.id.c_str());
            ++models;
        }
        QCOMPARE(models, 8);
        auto persistence = ModelFactory::createRegressor(tinyRegressor("persistence", "none", 3))->forward(drivers, history);
        for (int h = 0; h < 3; ++h)
            QVERIFY(torch::equal(persistence.select(1, h), history.select(1, 4)));
    }

    // Linear AR several steps ahead is one least-squares fit a step (the direct strategy): equal to fitting each
    // step's targets alone.
    void linearArFitsEachStepAhead()
    {
        torch::manual_seed(4);
        const int n = 60, window = 5, horizon = 3;
        const auto history = torch::randn({n, window});
        const auto target = torch::randn({n, horizon});
        LinearArRegressor joint(window, horizon);
        joint.fit({torch::Tensor(), history, target}, {});
        const auto together = joint.forward(torch::Tensor(), history);
        for (int h = 0; h < horizon; ++h) {
            LinearArRegressor alone(window, 1);
            alone.fit({torch::Tensor(), history, target.select(1, h).unsqueeze(1)}, {});
            QVERIFY2(torch::allclose(together.select(1, h), alone.forward(torch::Tensor(), history).select(1, 0), 1e-4, 1e-5),
                     qPrintable(QString("step %1").arg(h + 1)));
        }
    }

    // ARIMA's iterated forecast, by hand: AR(1) around a mean, y^_{t+1} = mu + phi (y_t - mu), then the same from it;
    // with d = 1 the differences are forecast and summed onto the last value.
    void arimaIteratesItsForecast()
    {
        const auto history = torch::tensor({{1.0, 2.0, 4.0, 3.0, 3.0}}, torch::kDouble); // known 1, 2, 4, 3
        ArimaRegressor ar(5, 3);
        ar.set({1, 0, 0}, {{0.5}, {}, 2.0, 1.0});
        const auto a = ar.forward(torch::Tensor(), history);
        const double f1 = 2.0 + 0.5 * (3.0 - 2.0), f2 = 2.0 + 0.5 * (f1 - 2.0), f3 = 2.0 + 0.5 * (f2 - 2.0);
        QVERIFY(std::abs(a[0][0].item<double>() - f1) < 1e-12 && std::abs(a[0][1].item<double>() - f2) < 1e-12 &&
                std::abs(a[0][2].item<double>() - f3) < 1e-12);
        // ARIMA(0,1,1): differences 1, 2, -1 around mean 0.5; residuals e1 = 2 - 0.5 - 0.4 * 0.5 = 1.3 (e0 = 0.5,
        // from its zero start), e2 = -1 - 0.5 - 0.4 * 1.3 = -2.02; the next difference 0.5 + 0.4 * (-2.02), then 0.5.
        ArimaRegressor ima(5, 2);
        ima.set({0, 1, 1}, {{}, {0.4}, 0.5, 1.0});
        const auto b = ima.forward(torch::Tensor(), history);
        const double d1 = 0.5 + 0.4 * -2.02;
        QVERIFY(std::abs(b[0][0].item<double>() - (3.0 + d1)) < 1e-12);
        QVERIFY(std::abs(b[0][1].item<double>() - (3.0 + d1 + 0.5)) < 1e-12);
    }

    // A run three steps ahead through the trainer: errors per step ahead in the test metrics, their mean square the
    // overall one, and the kept forecast the first step of every test window.
    void aRunReportsItsErrorsPerStepAhead()
    {
        DatasetOptions options;
        options.seriesLength = 300;
        options.horizon = 3;
        const auto data = DatasetCatalog::loadSeries("synthetic-lag", options);
        QCOMPARE(data.horizon, 3);
        for (const std::string model : {"linear-ar", "darnn"}) {
            TrainConfig config;
            config.dataset = "synthetic-lag";
            config.horizon = 3;
            config.model = tinyRegressor(model, model == "essan" ? "rpr" : "none"); // the trainer sets the horizon from the dataset
            config.model.drivers = data.drivers();
            config.model.window = data.window;
            config.steps = 20;
            config.evalEvery = 20;
            config.device = "cpu";
            struct Metrics : TrainingObserver {
                std::map<std::string, double> test;
                void onMetric(const MetricPoint& p) override
                {
                    if (p.split == "test")
                        test[p.name] = p.value;
                }
            } observer;
            CancelToken cancel;
            const auto summary = Trainer(config).run(data, observer, cancel);
            QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
            double squares = 0;
            for (int h = 1; h <= 3; ++h) {
                QVERIFY2(observer.test.count("rmse." + std::to_string(h)), (model + " rmse." + std::to_string(h)).c_str());
                squares += std::pow(observer.test["rmse." + std::to_string(h)], 2);
            }
            QVERIFY2(std::abs(std::sqrt(squares / 3) - summary.testRmse) < 1e-6 * summary.testRmse,
                     qPrintable(QString("%1: per step %2, overall %3").arg(QString::fromStdString(model)).arg(std::sqrt(squares / 3)).arg(summary.testRmse)));
            QVERIFY(summary.testForecast && summary.testForecast->size() == static_cast<int>(data.test.size()));
            QCOMPARE(summary.testForecast->firstRow, data.firstTestRow);
        }
    }
};

QTEST_MAIN(TestHorizon)
#include "test_horizon.moc"
