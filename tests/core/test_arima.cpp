// The ARIMA baseline against statsmodels on a committed fixture (tests/core/fixtures/series/make-arima-fixture.py):
// Hannan-Rissanen's estimates for several orders, every window's forecast, the recursion's agreement with
// statsmodels' exact (Kalman) forecast on long windows, the orders chosen on dev recomputed here, a run through the
// trainer as `train --model arima` starts one, and orders that do not fit refused by name.
#include "core/data/DatasetCatalog.h"
#include "core/nn/models/ArimaRegressor.h"
#include "core/nn/models/ModelFactory.h"
#include "core/training/Trainer.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>

using namespace attnlab;

namespace {

nlohmann::json fixture()
{
    std::ifstream in(std::string(ATTNLAB_SOURCE_DIR) + "/tests/core/fixtures/series/arima-statsmodels.json");
    if (!in)
        qFatal("the ARIMA fixture is missing");
    return nlohmann::json::parse(in);
}

// Windows as RegressionTask builds them: T - 1 known values, the unknown last one filled with the one before.
torch::Tensor windowsOf(const std::vector<double>& series, int window, const std::vector<int>& starts)
{
    auto history = torch::zeros({static_cast<int64_t>(starts.size()), window}, torch::kDouble);
    for (std::size_t i = 0; i < starts.size(); ++i) {
        for (int t = 0; t < window - 1; ++t)
            history[static_cast<int64_t>(i)][t] = series[static_cast<std::size_t>(starts[i] + t)];
        history[static_cast<int64_t>(i)][window - 1] = series[static_cast<std::size_t>(starts[i] + window - 2)];
    }
    return history;
}

ArimaRegressor::Estimate estimateOf(const nlohmann::json& j)
{
    ArimaRegressor::Estimate e;
    e.ar = j["ar"].get<std::vector<double>>();
    e.ma = j["ma"].get<std::vector<double>>();
    e.mean = j["mean"].get<double>();
    return e;
}

} // namespace

class TestArima : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void estimatesAndForecastsMatchStatsmodels()
    {
        const auto f = fixture();
        const auto series = f["series"].get<std::vector<double>>();
        const int window = f["window"].get<int>(), train = f["train_values"].get<int>();
        std::vector<int> starts;
        for (int s = 0; s + window <= static_cast<int>(series.size()); ++s)
            starts.push_back(s);
        const auto history = windowsOf(series, window, starts);
        for (const auto& c : f["cases"]) {
            const auto o = c["order"].get<std::vector<int>>();
            const QString name = QString("ARIMA(%1,%2,%3)").arg(o[0]).arg(o[1]).arg(o[2]);
            std::vector<double> values(series.begin(), series.begin() + train);
            if (o[1] == 1) {
                for (std::size_t i = 0; i + 1 < values.size(); ++i)
                    values[i] = values[i + 1] - values[i];
                values.pop_back();
            }
            const auto mine = ArimaRegressor::hannanRissanen(values, o[0], o[2]);
            const auto theirs = estimateOf(c["estimate"]);
            QCOMPARE(mine.ar.size(), theirs.ar.size());
            QCOMPARE(mine.ma.size(), theirs.ma.size());
            for (std::size_t i = 0; i < theirs.ar.size(); ++i)
                QVERIFY2(std::abs(mine.ar[i] - theirs.ar[i]) < 1e-9, qPrintable(name + QString(" phi_%1: %2 vs %3").arg(i + 1).arg(mine.ar[i], 0, 'g', 12).arg(theirs.ar[i], 0, 'g', 12)));
            for (std::size_t k = 0; k < theirs.ma.size(); ++k)
                QVERIFY2(std::abs(mine.ma[k] - theirs.ma[k]) < 1e-9, qPrintable(name + QString(" theta_%1: %2 vs %3").arg(k + 1).arg(mine.ma[k], 0, 'g', 12).arg(theirs.ma[k], 0, 'g', 12)));
            QVERIFY(std::abs(mine.mean - theirs.mean) < 1e-12);

            ArimaRegressor model(window);
            model.set({o[0], o[1], o[2]}, mine);
            const auto forecasts = model.forward(torch::Tensor(), history);
            const auto expected = c["forecasts"].get<std::vector<double>>();
            QCOMPARE(static_cast<std::size_t>(forecasts.size(0)), expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i)
                QVERIFY2(std::abs(forecasts[static_cast<int64_t>(i)].item<double>() - expected[i]) < 1e-9,
                         qPrintable(name + QString(" window %1").arg(i)));
            if (!c.contains("exact_long_window"))
                continue;
            // statsmodels' exact forecast on 60-step windows: the recursion's zero start has faded by then.
            const int longWindow = c["exact_long_window"]["window"].get<int>();
            ArimaRegressor wide(longWindow);
            wide.set({o[0], o[1], o[2]}, mine);
            std::vector<int> longStarts;
            std::vector<double> exact;
            for (const auto& e : c["exact_long_window"]["forecasts"]) {
                longStarts.push_back(e["start"].get<int>());
                exact.push_back(e["statsmodels"].get<double>());
            }
            const auto longForecasts = wide.forward(torch::Tensor(), windowsOf(series, longWindow, longStarts));
            for (std::size_t i = 0; i < exact.size(); ++i)
                QVERIFY2(std::abs(longForecasts[static_cast<int64_t>(i)].item<double>() - exact[i]) < 1e-6,
                         qPrintable(name + QString(" long window %1: %2 vs statsmodels %3").arg(i)
                                               .arg(longForecasts[static_cast<int64_t>(i)].item<double>(), 0, 'g', 10).arg(exact[i], 0, 'g', 10)));
        }
    }

    // fit tries every order that fits the window and keeps the one of lowest dev RMSE: recomputed here order by order.
    void ordersAreChosenOnDev()
    {
        const auto f = fixture();
        const auto series = f["series"].get<std::vector<double>>();
        const int window = f["window"].get<int>(), train = f["train_values"].get<int>();
        // Window i predicts value i + T - 1: the training windows' targets are the training values in order.
        std::vector<int> trainStarts, devStarts;
        for (int s = 0; s + window - 1 < train; ++s)
            trainStarts.push_back(s);
        for (int s = train - window + 1; s + window <= static_cast<int>(series.size()); ++s)
            devStarts.push_back(s);
        auto targets = [&](const std::vector<int>& starts) {
            std::vector<double> y;
            for (int s : starts)
                y.push_back(series[static_cast<std::size_t>(s + window - 1)]);
            return torch::tensor(y, torch::kDouble).unsqueeze(1); // [N, 1]: one step ahead
        };
        const SeriesRegressor::Windows trainWindows{torch::Tensor(), windowsOf(series, window, trainStarts), targets(trainStarts)};
        const SeriesRegressor::Windows devWindows{torch::Tensor(), windowsOf(series, window, devStarts), targets(devStarts)};
        ArimaRegressor model(window);
        model.fit(trainWindows, devWindows);
        const auto chosen = model.order();
        const auto chosenRmse = torch::sqrt((model.forward(torch::Tensor(), devWindows.history) - devWindows.target).pow(2).mean()).item<double>();
        // The training series the fit saw: the training windows' targets, values T-1 .. train-1.
        std::vector<double> values(series.begin() + window - 1, series.begin() + train);
        double best = std::numeric_limits<double>::infinity();
        int orders = 0;
        for (int d = 0; d <= 1; ++d) {
            std::vector<double> z = values;
            if (d == 1) {
                for (std::size_t i = 0; i + 1 < z.size(); ++i)
                    z[i] = z[i + 1] - z[i];
                z.pop_back();
            }
            for (int p = 0; p <= 3; ++p)
                for (int q = 0; q <= 2; ++q) {
                    ArimaRegressor other(window);
                    other.set({p, d, q}, ArimaRegressor::hannanRissanen(z, p, q));
                    const double rmse = torch::sqrt((other.forward(torch::Tensor(), devWindows.history) - devWindows.target).pow(2).mean()).item<double>();
                    best = std::min(best, rmse);
                    ++orders;
                }
        }
        QCOMPARE(orders, 24);
        QVERIFY2(std::abs(chosenRmse - best) < 1e-12, qPrintable(QString("chosen %1, best %2").arg(chosenRmse).arg(best)));
        const QString note = QString::fromStdString(model.fitNote());
        QVERIFY2(note.startsWith(QString("ARIMA(%1,%2,%3) chosen on dev from 24 orders").arg(chosen.p).arg(chosen.d).arg(chosen.q)),
                 qPrintable(note));
    }

    // As `train --model arima` runs it: one step, the orders in the run's notes, measured on dev and test.
    void trainsAsAOneStepRun()
    {
        DatasetOptions options;
        options.seriesLength = 600;
        const auto data = DatasetCatalog::loadSeries("synthetic-lag", options);
        TrainConfig config;
        config.dataset = "synthetic-lag";
        config.model.model = "arima";
        config.model.position = "none";
        config.model.drivers = data.drivers();
        config.model.window = data.window;
        config.steps = 50;
        config.device = "cpu";
        struct Notes : TrainingObserver {
            std::vector<std::string> notes;
            void onStarted(const RunInfo& info) override { notes = info.notes; }
        } observer;
        CancelToken cancel;
        const auto summary = Trainer(config).run(data, observer, cancel);
        QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
        QCOMPARE(summary.steps, 1);
        QVERIFY(summary.testRmse > 0 && std::isfinite(summary.testRmse));
        QCOMPARE(observer.notes.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(observer.notes[0]).contains("chosen on dev"), observer.notes[0].c_str());
    }

    void ordersThatDoNotFitAreRefused()
    {
        ArimaRegressor model(4); // 3 known values
        QVERIFY(model.fits({2, 1, 0}));
        QVERIFY(!model.fits({3, 1, 0}));
        try {
            model.set({3, 1, 0}, ArimaRegressor::Estimate{{0.1, 0.1, 0.1}, {}, 0.0, 1.0});
            QFAIL("an order that does not fit the window was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("ARIMA(3,1,0) needs 5 past values, and a window of 4 has 3"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.set({4, 0, 0}, {}));
        try {
            ArimaRegressor::hannanRissanen({1.0, 2.0, 1.5, 1.7, 1.1, 1.9, 1.2, 1.4}, 1, 1);
            QFAIL("a series too short for the long autoregression was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("8 values are too few"), e.what());
        }
        try {
            ArimaRegressor::hannanRissanen(std::vector<double>(40, 1.0), 1, 1);
            QFAIL("a constant series was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("singular"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ArimaRegressor(1));
    }
};

QTEST_MAIN(TestArima)
#include "test_arima.moc"
