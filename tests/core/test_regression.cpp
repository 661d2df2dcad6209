// Time-series regression: the error metrics on known inputs, every regressor's shapes, gradients and
// ability to fit, attention that sums to one, and a real training run on the synthetic lagged series.
#include "core/config/Registry.h"
#include "core/data/DatasetCatalog.h"
#include "core/nn/models/LinearArRegressor.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/RegressionTask.h"
#include "core/results/SeriesForecast.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/Trainer.h"

#include <QtCore/QTemporaryDir>

#include <QtTest/QtTest>

#include "tests/support/TinyRegressor.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace attnlab;
using attnlab::testing::tinyRegressor;

namespace {

// The trained ones: the baselines (persistence, linear AR) have no gradient steps.
std::vector<std::string> regressionModels()
{
    std::vector<std::string> ids;
    for (const auto& m : Registry::models())
        if (m.servesTask(TaskKind::Regression) && m.id != "persistence" && m.id != "linear-ar" && m.id != "arima")
            ids.push_back(m.id);
    return ids;
}

class Silent : public TrainingObserver {};

} // namespace

class TestRegression : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void errorMetricsFollowTable62()
    {
        // predicted (1, 2, 4) against targets (2, 2, 2): MAE = (1 + 0 + 2) / 3 = 1,
        // RMSE = sqrt((1 + 0 + 4) / 3) = 1.290994, MAPE = (1/2 + 0 + 2/2) / 3 * 100 = 50 %.
        const auto e = RegressionTask::errors(torch::tensor({1.0, 2.0, 4.0}), torch::tensor({2.0, 2.0, 2.0}));
        QCOMPARE(e[0].first, std::string("mae"));
        QVERIFY(std::abs(e[0].second - 1.0) < 1e-12);
        QVERIFY(std::abs(e[1].second - 1.2909944487) < 1e-9);
        QVERIFY(std::abs(e[2].second - 50.0) < 1e-9);
    }

    void everyRegressorHasShapesGradientsAndFits()
    {
        const auto models = regressionModels();
        QCOMPARE(models.size(), std::size_t(5)); // essan, narx, encdec, attn-rnn, darnn
        for (const auto& id : models) {
            torch::manual_seed(5);
            auto config = tinyRegressor(id, id == "essan" ? "rpr" : "none");
            config.horizon = 2; // two steps ahead at once: [B, 2]
            auto model = ModelFactory::createRegressor(config);
            auto drivers = torch::randn({4, 5, 3});
            auto history = torch::randn({4, 5});
            auto target = torch::tensor({{0.1f, 0.3f}, {-0.4f, -0.2f}, {0.7f, 0.5f}, {0.2f, 0.0f}});
            auto predicted = model->forward(drivers, history);
            QVERIFY2(predicted.sizes() == torch::IntArrayRef({4, 2}), id.c_str());
            torch::mse_loss(predicted, target).backward();
            for (const auto& p : model->named_parameters()) {
                const auto label = id + " " + p.key();
                QVERIFY2(p.value().grad().defined() && p.value().grad().abs().sum().item<double>() > 0, label.c_str());
            }
            torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(0.01));
            double loss = 1;
            for (int step = 0; step < 1000 && loss > 1e-4; ++step) {
                optimizer.zero_grad();
                auto l = torch::mse_loss(model->forward(drivers, history), target);
                l.backward();
                optimizer.step();
                loss = l.item<double>();
            }
            QVERIFY2(loss < 1e-3, (id + " loss " + std::to_string(loss)).c_str());
        }
    }

    // The linear AR baseline against numpy.linalg.lstsq on a fixture (tests/core/fixtures/series/make-ar-fixture.py):
    // the same coefficients and every window's forecast; persistence forecasts the last value seen.
    void baselinesMatchTheirReference()
    {
        std::ifstream in(std::string(ATTNLAB_SOURCE_DIR) + "/tests/core/fixtures/series/ar-lstsq.json");
        QVERIFY(in);
        const auto fixture = nlohmann::json::parse(in);
        const auto series = fixture["series"].get<std::vector<double>>();
        const int window = fixture["window"].get<int>(), train = fixture["train_windows"].get<int>();
        const auto windows = static_cast<int64_t>(series.size()) - window + 1;
        // history as the task builds it: the window's values, the unknown last one filled with the one before.
        auto history = torch::zeros({windows, window}), target = torch::zeros({windows});
        for (int64_t i = 0; i < windows; ++i) {
            for (int t = 0; t < window - 1; ++t)
                history[i][t] = series[static_cast<std::size_t>(i + t)];
            history[i][window - 1] = series[static_cast<std::size_t>(i + window - 2)];
            target[i] = series[static_cast<std::size_t>(i + window - 1)];
        }
        auto config = tinyRegressor("linear-ar");
        config.window = window;
        auto model = ModelFactory::createRegressor(config);
        QVERIFY(model->fitsInClosedForm());
        QCOMPARE(model->trainableParameters(), std::int64_t(0));
        const auto drivers = torch::zeros({windows, window, 3});
        model->fit({drivers.narrow(0, 0, train), history.narrow(0, 0, train), target.narrow(0, 0, train)}, {});
        const auto coefficients = std::dynamic_pointer_cast<LinearArRegressor>(model)->coefficients();
        const auto expected = fixture["coefficients"].get<std::vector<double>>();
        for (std::size_t k = 0; k < expected.size(); ++k)
            QVERIFY2(std::abs(coefficients[static_cast<int64_t>(k)].item<double>() - expected[k]) < 1e-4, std::to_string(k).c_str());
        const auto forecasts = model->forward(drivers, history);
        const auto reference = fixture["forecasts"].get<std::vector<double>>();
        for (int64_t i = 0; i < windows; ++i)
            QVERIFY2(std::abs(forecasts[i].item<double>() - reference[static_cast<std::size_t>(i)]) < 1e-5, std::to_string(i).c_str());
        // Persistence: y_{T-1} for every window, no parameters.
        auto persistence = ModelFactory::createRegressor(tinyRegressor("persistence"));
        QVERIFY(!persistence->fitsInClosedForm());
        QCOMPARE(persistence->trainableParameters(), std::int64_t(0));
        const auto last = persistence->forward(drivers, history);
        for (int64_t i = 0; i < windows; ++i)
            QCOMPARE(last[i].item<float>(), static_cast<float>(series[static_cast<std::size_t>(i + window - 2)]));
    }

    // The baselines through the trainer, as `train --model persistence|linear-ar` runs them: one step, measured on dev
    // and test; persistence's RMSE is the RMSE of the last value seen, computed here from the dataset.
    void baselinesTrainAsOneStepRuns()
    {
        DatasetOptions options;
        options.seriesLength = 600;
        const auto data = DatasetCatalog::loadSeries("synthetic-lag", options);
        double squares = 0;
        for (const auto& w : data.test) {
            const double e = data.denormalise(w.targetHistory.back()) - data.denormalise(w.target);
            squares += e * e;
        }
        const double persistenceRmse = std::sqrt(squares / static_cast<double>(data.test.size()));
        for (const std::string model : {"persistence", "linear-ar"}) {
            TrainConfig config;
            config.dataset = "synthetic-lag";
            config.model = tinyRegressor(model);
            config.steps = 50;
            config.device = "cpu";
            Silent observer;
            CancelToken cancel;
            const auto summary = Trainer(config).run(data, observer, cancel);
            QCOMPARE(QString::fromStdString(toString(summary.status)), QString("completed"));
            QCOMPARE(summary.steps, 1);
            QVERIFY(summary.testRmse > 0);
            if (model == "persistence")
                QVERIFY2(std::abs(summary.testRmse - persistenceRmse) < 1e-4 * persistenceRmse,
                         qPrintable(QString("%1 vs %2").arg(summary.testRmse).arg(persistenceRmse)));
            else // least squares on the lags beats repeating the last one on a series that depends on its past
                QVERIFY2(summary.testRmse < persistenceRmse, qPrintable(QString("%1 vs %2").arg(summary.testRmse).arg(persistenceRmse)));
        }
    }

    void attentionWeightsSumToOne()
    {
        auto darnn = ModelFactory::createRegressor(tinyRegressor("darnn"));
        darnn->setRecordAttention(true);
        darnn->forward(torch::randn({2, 5, 3}), torch::randn({2, 5}));
        const auto input = darnn->recordedInputAttention();     // over the 3 driving series, at each of 5 steps
        const auto temporal = darnn->recordedTemporalAttention(); // over the 5 encoder steps
        QVERIFY(input.sizes() == torch::IntArrayRef({2, 5, 3}));
        QVERIFY(torch::allclose(input.sum(-1), torch::ones({2, 5}), 1e-5, 1e-6));
        QVERIFY(torch::allclose(temporal.sum(-1), torch::ones({2}), 1e-5, 1e-6));
        auto essan = ModelFactory::createRegressor(tinyRegressor("essan", "rpr"));
        essan->setRecordAttention(true);
        essan->forward(torch::randn({2, 5, 3}), torch::randn({2, 5}));
        QCOMPARE(essan->recordedAttention().size(), std::size_t(1));
        QVERIFY(torch::allclose(essan->recordedAttention()[0].sum(-1), torch::ones({2, 2, 5}), 1e-5, 1e-6));
    }

    // DA-RNN's snapshot: input attention over the named driving series at every step, temporal attention
    // over the steps, both summing to one, through the store's JSON and back.
    void darnnSnapshotHasInputAndTemporalAttention()
    {
        DatasetOptions options;
        options.seriesLength = 300;
        const auto data = DatasetCatalog::loadSeries("synthetic-lag", options);
        TrainConfig config;
        config.dataset = "synthetic-lag";
        config.model = tinyRegressor("darnn");
        config.steps = 10;
        config.evalEvery = 10;
        config.device = "cpu";
        struct Catch : TrainingObserver {
            std::vector<AttentionSnapshot> snapshots;
            void onAttention(const AttentionSnapshot& s) override { snapshots.push_back(s); }
        } observer;
        CancelToken cancel;
        Trainer(config).run(data, observer, cancel);
        QCOMPARE(observer.snapshots.size(), std::size_t(1));
        const auto s = AttentionSnapshot::fromJson(observer.snapshots[0].toJson());
        const std::size_t steps = static_cast<std::size_t>(data.window), features = data.driverNames.size();
        QCOMPARE(s.tokens.size(), steps);
        QCOMPARE(s.features, data.driverNames);
        QCOMPARE(s.inputAttention.size(), steps * features);
        for (std::size_t t = 0; t < steps; ++t) {
            double sum = 0;
            for (std::size_t f = 0; f < features; ++f)
                sum += s.inputAttention[t * features + f];
            QVERIFY(std::abs(sum - 1.0) < 1e-5);
        }
        QCOMPARE(s.poolingName, std::string("temporal attention"));
        QCOMPARE(s.pooling.size(), steps);
        double sum = 0;
        for (float w : s.pooling)
            sum += w;
        QVERIFY(std::abs(sum - 1.0) < 1e-5);
        QVERIFY(s.maps.empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, [] {
            AttentionSnapshot bad;
            bad.tokens = {"t-1", "t-0"};
            bad.features = {"a"};
            bad.inputAttention = {0.5f}; // 2 steps x 1 feature needs 2 weights
            AttentionSnapshot::fromJson(bad.toJson());
        }());
    }

    // The forecast a time-series run keeps, through the trainer and the store as the window and `train` store it:
    // persistence's prediction of each test row is the row before it (so the kept values are checked by hand), the
    // test RMSE follows from the kept values, and DA-RNN's rows of temporal attention each sum to one.
    void forecastIsKeptWithTheRun()
    {
        DatasetOptions options;
        options.seriesLength = 400;
        const auto data = DatasetCatalog::loadSeries("synthetic-lag", options);
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        for (const std::string model : {"persistence", "darnn"}) {
            TrainConfig config;
            config.dataset = "synthetic-lag";
            config.model = tinyRegressor(model);
            config.model.window = data.window;
            config.steps = 20;
            config.evalEvery = 20;
            config.device = "cpu";
            StoreObserver observer(store);
            CancelToken cancel;
            const auto summary = Trainer(config).run(data, observer, cancel);
            QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
            observer.flush();
            const auto kept = store.analysis(observer.runId(), "forecast", "test");
            QVERIFY(kept);
            const auto f = SeriesForecast::fromJson(kept->json);
            QCOMPARE(f.size(), static_cast<int>(data.test.size()));
            QCOMPARE(f.firstRow, static_cast<int>(data.train.size() + data.dev.size()));
            QCOMPARE(f.window, data.window);
            QCOMPARE(f.target, data.targetName);
            double squares = 0;
            for (int i = 0; i < f.size(); ++i) {
                const auto& w = data.test[static_cast<std::size_t>(i)];
                const double actual = data.denormalise(w.target);
                QVERIFY2(std::abs(f.actual[static_cast<std::size_t>(i)] - actual) <= 1e-6 * std::max(1.0, std::abs(actual)),
                         qPrintable(QString("row %1: %2 vs %3").arg(i).arg(f.actual[static_cast<std::size_t>(i)]).arg(actual)));
                if (model == "persistence") { // the value before: the window's last known one
                    const double last = data.denormalise(w.targetHistory.back());
                    QVERIFY(std::abs(f.predicted[static_cast<std::size_t>(i)] - last) <= 1e-5 * std::max(1.0, std::abs(last)));
                }
                const double e = f.predicted[static_cast<std::size_t>(i)] - f.actual[static_cast<std::size_t>(i)];
                squares += e * e;
            }
            const double rmse = std::sqrt(squares / f.size());
            QVERIFY2(std::abs(rmse - summary.testRmse) <= 1e-5 * summary.testRmse,
                     qPrintable(QString("%1 from the forecast, %2 stored").arg(rmse).arg(summary.testRmse)));
            if (model == "persistence") {
                QVERIFY(f.attention.empty()); // nothing to attend with
                continue;
            }
            QCOMPARE(f.attentionName, std::string("temporal attention"));
            QCOMPARE(f.attention.size(), data.test.size());
            for (const auto& row : f.attention) {
                QCOMPARE(static_cast<int>(row.size()), data.window);
                double sum = 0;
                for (float w : row)
                    sum += w;
                QVERIFY(std::abs(sum - 1.0) < 1e-5);
            }
        }
        // A damaged record is refused by name.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SeriesForecast::fromJson("{\"actual\": [1, 2], \"predicted\": [1]}"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 SeriesForecast::fromJson("{\"window\": 3, \"actual\": [1], \"predicted\": [1], \"attention\": [[0.5, 0.5]]}"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SeriesForecast::fromJson("not json"));
        for (const char* window : {"8888888888888888888888", "2.5", "-3000000000"}) { // found by fuzz_forecast: no int
            try {
                SeriesForecast::fromJson(std::string("{\"window\": ") + window + ", \"actual\": [], \"predicted\": []}");
                QFAIL(window);
            } catch (const std::invalid_argument& e) {
                QVERIFY2(std::string(e.what()).find("'window' is not a whole number") != std::string::npos, e.what());
            }
        }
    }

    void classifiersAreRefusedOnSeriesAndBack()
    {
        auto c = tinyRegressor("lstm");
        QVERIFY(QString::fromStdString(c.validate()).contains("is a classification model"));
        c = tinyRegressor("darnn");
        c.drivers = 0;
        c.numClasses = 2;
        c.vocabularySize = 10;
        QVERIFY(QString::fromStdString(c.validate()).contains("is a time-series regression model"));
    }

    void shuffledEpochsCoverEveryWindowOnce()
    {
        DatasetOptions options;
        options.seriesLength = 400;
        const auto data = DatasetCatalog::loadSeries("synthetic-lag", options);
        auto model = ModelFactory::createRegressor([&] {
            auto c = tinyRegressor("narx");
            c.drivers = data.drivers();
            c.window = data.window;
            return c;
        }());
        const auto n = static_cast<int64_t>(data.train.size());
        auto epoch = [&](std::uint64_t seed) {
            RegressionTask task(model, data, torch::kCPU, "epochs");
            std::mt19937_64 rng(seed);
            std::vector<int64_t> seen;
            for (int64_t drawn = 0; drawn < n; drawn += 16) {
                auto picks = task.drawWindows(rng, static_cast<int>(std::min<int64_t>(16, n - drawn)));
                seen.insert(seen.end(), picks.begin(), picks.end());
            }
            return seen;
        };
        auto first = epoch(9);
        QCOMPARE(static_cast<int64_t>(first.size()), n);
        QCOMPARE(epoch(9), first); // reproducible by seed
        QVERIFY(epoch(10) != first);
        std::sort(first.begin(), first.end());
        for (int64_t i = 0; i < n; ++i)
            QCOMPARE(first[static_cast<std::size_t>(i)], i); // every window exactly once
    }

    void trainingBeatsPredictingTheMean()
    {
        DatasetOptions options;
        options.seriesLength = 1200;
        const auto data = DatasetCatalog::loadSeries("synthetic-lag", options);
        // Baseline: always predict the train targets' mean, in the target's units.
        double mean = 0;
        for (const auto& w : data.train) mean += w.target;
        mean /= static_cast<double>(data.train.size());
        double squares = 0;
        for (const auto& w : data.dev) {
            const double e = data.denormalise(mean) - data.denormalise(w.target);
            squares += e * e;
        }
        const double baseline = std::sqrt(squares / static_cast<double>(data.dev.size()));

        TrainConfig config;
        config.dataset = "synthetic-lag";
        config.model = tinyRegressor("narx");
        config.model.dModel = 32;
        config.steps = 400;
        config.evalEvery = 100;
        config.batchSize = 64;
        config.learningRate = 0.005;
        config.device = "cpu";
        Silent observer;
        CancelToken cancel;
        const auto summary = Trainer(config).run(data, observer, cancel);
        qInfo("NARX on synthetic-lag: dev RMSE %.4f (mean predictor %.4f), test MAE %.4f RMSE %.4f", summary.bestDevRmse,
              baseline, summary.testMae, summary.testRmse);
        QCOMPARE(QString::fromStdString(toString(summary.status)), QString("completed"));
        QVERIFY(summary.regression);
        QVERIFY2(summary.bestDevRmse < 0.7 * baseline, "the model should clearly beat predicting the mean");
        QVERIFY(summary.testRmse > 0 && summary.testMae > 0 && summary.testMae <= summary.testRmse);
    }
};

QTEST_APPLESS_MAIN(TestRegression)
#include "test_regression.moc"
