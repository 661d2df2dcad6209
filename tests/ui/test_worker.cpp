// The training worker and its bridge, on a real (small) training run: signals arrive coalesced and in
// order, agree with the run store, and stop() ends a run within a batch.
#include "core/config/TrainConfig.h"
#include "core/store/RunStore.h"
#include "ui/training/CoreMetaTypes.h"
#include "ui/training/TrainingEventBridge.h"
#include "ui/training/TrainingWorker.h"
#include "tests/support/StatusText.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace attnlab;
using attnlab::ui::TrainingEventBridge;
using attnlab::ui::TrainingWorker;

namespace {

TrainConfig smallConfig(int steps, int evalEvery)
{
    TrainConfig config;
    config.dataset = "synthetic-sentiment";
    config.model.model = "ssan";
    config.model.position = "rpr";
    config.model.dModel = 32;
    config.steps = steps;
    config.evalEvery = evalEvery;
    config.batchSize = 32;
    config.seed = 3;
    config.device = "cpu";
    return config;
}

// RunStatus as text: QCOMPARE then prints names, and attnlab::toString cannot clash with QTest's.
// A worker on a fresh run store, with a spy on each of the run's signals (from its bridge) and on idle.
struct SpiedWorker {
    QTemporaryDir dir;
    QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    TrainingWorker worker{db};
    QSignalSpy started{worker.events(), &TrainingEventBridge::runStarted};
    QSignalSpy progress{worker.events(), &TrainingEventBridge::progress};
    QSignalSpy metrics{worker.events(), &TrainingEventBridge::metricsArrived};
    QSignalSpy attention{worker.events(), &TrainingEventBridge::attentionArrived};
    QSignalSpy finished{worker.events(), &TrainingEventBridge::runFinished};
    QSignalSpy failed{worker.events(), &TrainingEventBridge::failed};
    QSignalSpy idle{&worker, &TrainingWorker::idle};
};

std::vector<MetricPoint> select(const std::vector<MetricPoint>& points, const char* split, const char* name)
{
    std::vector<MetricPoint> out;
    for (const auto& p : points) {
        if (p.split == split && p.name == name)
            out.push_back(p);
    }
    return out;
}

} // namespace

class TestWorker : public QObject {
    Q_OBJECT
private slots:
    void trainsAndReportsThroughCoalescedSignals();
    void stopEndsRunWithinABatch();
    void unknownDatasetReportsFailure();
};

void TestWorker::trainsAndReportsThroughCoalescedSignals()
{
    SpiedWorker run;
    QVERIFY(run.dir.isValid());
    TrainingWorker& worker = run.worker;
    // When each progress signal arrived, to check the coalescing interval.
    QList<qint64> progressTimes;
    QElapsedTimer clock;
    clock.start();
    connect(worker.events(), &TrainingEventBridge::progress, this, [&] { progressTimes << clock.elapsed(); });

    const int steps = 200;
    QVERIFY(worker.start(smallConfig(steps, 20)));
    QVERIFY(worker.isRunning());
    QVERIFY2(!worker.start(smallConfig(steps, 20)), "a second run must not start while one is going");
    QTRY_COMPARE_WITH_TIMEOUT(run.idle.count(), 1, 240000);
    QVERIFY(!worker.isRunning());
    QVERIFY2(run.failed.isEmpty(), run.failed.isEmpty() ? "" : qPrintable(run.failed.first().first().toString()));

    // Started once, before anything else, naming the stored run.
    QCOMPARE(run.started.count(), 1);
    const qint64 runId = run.started.first().at(0).toLongLong();
    QVERIFY(runId > 0);
    QVERIFY(!run.started.first().at(1).toString().isEmpty()); // device
    QVERIFY(run.started.first().at(2).toLongLong() > 0);      // parameters

    // Progress: strictly increasing steps of the planned total, finite positive losses, coalesced.
    QVERIFY(run.progress.count() >= 1);
    int lastStep = 0;
    for (const auto& args : run.progress) {
        const int step = args.at(0).toInt();
        QVERIFY2(step > lastStep, qPrintable(QStringLiteral("step %1 after %2").arg(step).arg(lastStep)));
        lastStep = step;
        QCOMPARE(args.at(1).toInt(), steps);
        const double loss = args.at(2).toDouble();
        QVERIFY(std::isfinite(loss) && loss > 0.0);
        QVERIFY(args.at(3).toDouble() >= 0.0);
    }
    QCOMPARE(lastStep, steps); // the last value always goes out with the end of the run
    // Paced by the bridge's timer: no more deliveries than one per interval (a coarse timer may fire up to
    // 5% early, and one late tick is followed by an early one), plus the final one with the run's end.
    if (progressTimes.size() > 2) {
        const double span = progressTimes[progressTimes.size() - 2] - progressTimes.first();
        const double allowed = span / (0.95 * TrainingEventBridge::kDeliveryIntervalMs) + 1.0;
        QVERIFY2(progressTimes.size() - 2 <= allowed,
                 qPrintable(QStringLiteral("%1 progress deliveries in %2 ms").arg(progressTimes.size() - 1).arg(span)));
    }
    if (run.finished.count() == 1 && run.finished.first().at(1).value<RunSummary>().seconds * 1000.0 / steps < 10.0)
        QVERIFY2(run.progress.count() < steps / 2, "batches of a few ms: progress must be coalesced, not sent per batch");

    // Metrics arrive in batches; together they are the run's curves.
    std::vector<MetricPoint> all;
    for (const auto& args : run.metrics) {
        const auto batch = args.at(0).value<QVector<MetricPoint>>();
        QVERIFY(!batch.isEmpty());
        all.insert(all.end(), batch.begin(), batch.end());
    }
    const auto trainLoss = select(all, "train", "loss");
    const auto devAccuracy = select(all, "dev", "accuracy");
    const auto testAccuracy = select(all, "test", "accuracy");
    QVERIFY(trainLoss.size() >= 10);
    QVERIFY(devAccuracy.size() >= static_cast<std::size_t>(steps / 20) - 1);
    QCOMPARE(testAccuracy.size(), std::size_t(1));
    for (const auto* series : {&trainLoss, &devAccuracy}) {
        for (std::size_t i = 1; i < series->size(); ++i)
            QVERIFY((*series)[i].step > (*series)[i - 1].step);
    }
    for (const auto& p : devAccuracy) {
        QVERIFY(p.value >= 0.0 && p.value <= 1.0);
        QVERIFY(p.step > 0 && p.step <= steps);
    }
    // It learns: the last train losses are below the first ones.
    const auto meanLoss = [](auto begin, auto end) {
        double sum = 0;
        int n = 0;
        for (auto it = begin; it != end; ++it, ++n)
            sum += it->value;
        return sum / n;
    };
    QVERIFY(meanLoss(trainLoss.end() - 3, trainLoss.end()) < meanLoss(trainLoss.begin(), trainLoss.begin() + 3));

    // The summary agrees with the curves: best dev is the highest dev point, at its step.
    QCOMPARE(run.finished.count(), 1);
    QCOMPARE(run.finished.first().at(0).toLongLong(), runId);
    const auto summary = run.finished.first().at(1).value<RunSummary>();
    QCOMPARE(statusText(summary.status), statusText(RunStatus::Completed));
    QCOMPARE(summary.steps, steps);
    const auto best = std::max_element(devAccuracy.begin(), devAccuracy.end(),
                                       [](const MetricPoint& a, const MetricPoint& b) { return a.value < b.value; });
    QVERIFY(std::abs(summary.bestDevAccuracy - best->value) < 1e-9);
    const auto atBestStep = std::find_if(devAccuracy.begin(), devAccuracy.end(),
                                         [&](const MetricPoint& p) { return p.step == summary.bestStep; });
    QVERIFY(atBestStep != devAccuracy.end());
    QVERIFY(std::abs(atBestStep->value - best->value) < 1e-9);
    QVERIFY(std::abs(summary.testAccuracy - testAccuracy.front().value) < 1e-9);
    qInfo("%d progress signals, %d metric batches (%zu points), %d attention batches; best dev %.3f at %d, test %.3f",
          int(run.progress.count()), int(run.metrics.count()), all.size(), int(run.attention.count()),
          summary.bestDevAccuracy, summary.bestStep, summary.testAccuracy);
    QVERIFY2(summary.bestDevAccuracy > 0.25, "5 classes: 200 steps must beat chance (20%)");

    // Attention: row-stochastic maps over the probe tokens, one batch at a time.
    QVERIFY(run.attention.count() >= 1);
    // In order: by step, and within a step the probe inputs 0, 1, ... (the probe sentence is probe 0).
    AttentionSnapshot last, previous;
    for (const auto& args : run.attention) {
        for (const auto& snapshot : args.at(0).value<QVector<AttentionSnapshot>>()) {
            QVERIFY(snapshot.step > previous.step || (snapshot.step == previous.step && snapshot.probe == previous.probe + 1));
            previous = snapshot;
            if (snapshot.probe == 0)
                last = snapshot;
        }
    }
    QVERIFY(!last.tokens.empty());
    QVERIFY(!last.maps.empty());
    for (const auto& map : last.maps) {
        QCOMPARE(map.size, static_cast<int>(last.tokens.size()));
        QCOMPARE(map.weights.size(), static_cast<std::size_t>(map.size) * map.size);
        for (int q = 0; q < map.size; ++q) {
            double row = 0;
            for (int k = 0; k < map.size; ++k)
                row += map.at(q, k);
            QVERIFY(std::abs(row - 1.0) < 1e-3);
        }
    }

    // The worker's own store connection wrote the same run the signals described.
    RunStore store(run.db.toStdString());
    const auto record = store.run(runId);
    QVERIFY(record.has_value());
    QCOMPARE(statusText(record->status), statusText(RunStatus::Completed));
    QCOMPARE(record->steps, steps);
    QCOMPARE(store.metrics(runId).size(), all.size());
    const auto stored = store.latestAttention(runId);
    QVERIFY(stored.has_value());
    QCOMPARE(stored->step, last.step);
    QCOMPARE(stored->tokens, last.tokens);
}

void TestWorker::stopEndsRunWithinABatch()
{
    SpiedWorker run;
    QVERIFY(run.dir.isValid());
    TrainingWorker& worker = run.worker;

    const int steps = 100000;
    QVERIFY(worker.start(smallConfig(steps, 1000)));
    QTRY_VERIFY_WITH_TIMEOUT(run.progress.count() >= 2, 120000);
    const int seenStep = run.progress.last().at(0).toInt();
    QVERIFY(seenStep > 0 && seenStep < steps);

    QElapsedTimer stopping;
    stopping.start();
    worker.stop();
    QVERIFY2(worker.wait(2000), "the training thread must end within a batch of stop()");
    qInfo("thread ended %lld ms after stop()", static_cast<long long>(stopping.elapsed()));

    QTRY_COMPARE_WITH_TIMEOUT(run.idle.count(), 1, 5000);
    QCOMPARE(run.started.count(), 1);
    const qint64 runId = run.started.first().at(0).toLongLong();
    QCOMPARE(run.finished.count(), 1);
    const auto summary = run.finished.first().at(1).value<RunSummary>();
    QCOMPARE(statusText(summary.status), statusText(RunStatus::Cancelled));
    QVERIFY(summary.steps >= seenStep && summary.steps < steps);

    RunStore store(run.db.toStdString());
    const auto record = store.run(runId);
    QVERIFY(record.has_value());
    QCOMPARE(statusText(record->status), statusText(RunStatus::Cancelled));
    QCOMPARE(record->steps, summary.steps);
    QVERIFY(record->steps < steps);

    // The worker is reusable once idle.
    QVERIFY(worker.start(smallConfig(5, 5)));
    QTRY_COMPARE_WITH_TIMEOUT(run.idle.count(), 2, 120000);
    QCOMPARE(statusText(run.finished.last().at(1).value<RunSummary>().status), statusText(RunStatus::Completed));
}

void TestWorker::unknownDatasetReportsFailure()
{
    SpiedWorker run;
    QVERIFY(run.dir.isValid());

    TrainConfig config = smallConfig(10, 5);
    config.dataset = "no-such-dataset";
    QVERIFY(run.worker.start(config));
    QTRY_COMPARE_WITH_TIMEOUT(run.idle.count(), 1, 30000);
    QCOMPARE(run.failed.count(), 1);
    QVERIFY2(run.failed.first().first().toString().contains(QStringLiteral("no-such-dataset")),
             qPrintable(run.failed.first().first().toString()));
    QCOMPARE(run.started.count(), 0);
    QVERIFY(RunStore(run.db.toStdString()).listRuns().empty()); // nothing half-written
}

QTEST_MAIN(TestWorker)
#include "test_worker.moc"
