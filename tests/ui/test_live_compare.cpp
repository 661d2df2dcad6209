// Compare mode: several configurations trained at once in the window, for real (small
// models on synthetic-sentiment): curves overlaid, probe 0's attention side by side, each run in the store
// tagged compare:<id>, stop one, a queue that starts runs as workers free up, stop all / close.
#include "core/config/TrainConfig.h"
#include "core/results/RunResult.h"
#include "core/store/RunStore.h"
#include "tests/support/WidgetLookup.h"
#include "tests/support/StatusText.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/LiveComparisonPlot.h"
#include "ui/training/RunReplay.h"
#include "ui/training/ComparisonResultsModel.h"
#include "ui/training/LiveComparisonView.h"
#include "ui/training/TrainingQueue.h"
#include "ui/training/TrainingWorker.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace attnlab;
using attnlab::ui::AttentionHeatmap;
using attnlab::ui::LiveComparisonPlot;
using attnlab::ui::LiveComparisonView;
using attnlab::ui::TrainingQueue;

namespace {

TrainConfig smallConfig(const char* model, const char* position, int steps, int dModel = 32)
{
    TrainConfig config;
    config.dataset = "synthetic-sentiment";
    config.model.model = model;
    config.model.position = position;
    config.model.dModel = dModel;
    config.steps = steps;
    config.evalEvery = 50;
    config.batchSize = 32;
    config.seed = 3;
    config.device = "cpu";
    config.checkpointDir.clear(); // no weights kept: the tests read curves and results only
    return config;
}

bool hasTag(const RunRecord& record, const QString& tag)
{
    return std::find(record.tags.begin(), record.tags.end(), tag.toStdString()) != record.tags.end();
}

int dataCount(const QWidget* plot, const QString& name)
{
    const auto graphs = plot->findChildren<QCPGraph*>(name);
    return graphs.size() == 1 ? graphs.first()->dataCount() : -1;
}

} // namespace

class TestLiveCompare : public QObject {
    Q_OBJECT
private slots:
    void twoRunsSideBySide();
    void stoppingOneStopsOnlyThatOne();
    void queueStartsRunsAsWorkersFreeUp();
    void closingWithFourRunningStoresThemCancelled();
    void timeSeriesRunsCompareByRmse();
    void measureThreadShares(); // a measurement, run only with ATTNLAB_MEASURE_THREADS=1
};

void TestLiveCompare::twoRunsSideBySide()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    LiveComparisonView view(db);
    view.resize(1280, 720);
    view.show();
    QSignalSpy finished(&view, &LiveComparisonView::allFinished);
    QSignalSpy stored(&view, &LiveComparisonView::runStored);

    const std::vector<TrainConfig> configs{smallConfig("ssan", "rpr", 200), smallConfig("lstm", "none", 200)};
    QCOMPARE(view.start(configs), QString());
    QVERIFY(view.isRunning());
    QVERIFY(view.comparisonTag().startsWith(QStringLiteral("compare:")));
    TrainingQueue* queue = view.queue();
    QCOMPARE(queue->count(), 2);
    QCOMPARE(queue->runningCount(), 2);
    // Each got its share of the cores when it started, and the view says so.
    const int share = TrainingQueue::threadShare(2);
    QCOMPARE(queue->entry(0).threads, share);
    QCOMPARE(queue->entry(1).threads, share);
    QCOMPARE(queue->entry(0).config.threads, share);
    QVERIFY2(child<QLabel>(&view, "threadsLabel")->text().contains(share == 1 ? QStringLiteral("1 thread each")
                                                                               : QStringLiteral("%1 threads each").arg(share)),
             qPrintable(child<QLabel>(&view, "threadsLabel")->text()));
    QCOMPARE(child<QLabel>(&view, "entryTitle0")->text(), QStringLiteral("SSAN + Relative (RPR)"));

    // In progress: a screenshot once the SSAN run has shown its first attention map.
    auto* ssanMap = child<AttentionHeatmap>(&view, "entryHeatmap0");
    auto* lstmMap = child<AttentionHeatmap>(&view, "entryHeatmap1");
    QTRY_VERIFY_WITH_TIMEOUT(ssanMap->hasSnapshot() || !view.isRunning(), 240000);
    if (view.isRunning()) {
        auto* plot = child<LiveComparisonPlot>(&view, "liveComparisonPlot");
        plot->replot();
        const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
        QVERIFY(QDir().mkpath(shots));
        const QPixmap shot = view.grab();
        QVERIFY(!shot.isNull());
        QVERIFY(shot.save(shots + QStringLiteral("/live-compare.png")));
    }

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 240000);
    QVERIFY(!view.isRunning());
    QCOMPARE(stored.count(), 2);

    // Both curves in one plot.
    auto* plot = child<LiveComparisonPlot>(&view, "liveComparisonPlot");
    QCOMPARE(plot->runCount(), 2);
    for (int i = 0; i < 2; ++i) {
        QVERIFY2(dataCount(plot, QStringLiteral("trainLossGraph%1").arg(i)) > 0, qPrintable(QString::number(i)));
        QVERIFY2(dataCount(plot, QStringLiteral("devMetricGraph%1").arg(i)) >= 3, qPrintable(QString::number(i)));
        QCOMPARE(dataCount(plot, QStringLiteral("testMetricGraph%1").arg(i)), 1);
    }

    // SSAN's probe attention, rows summing to 1; the LSTM has none: a placeholder.
    QVERIFY(ssanMap->hasSnapshot());
    QCOMPARE(ssanMap->snapshot()->probe, 0);
    QVERIFY(!ssanMap->snapshot()->maps.empty());
    for (const auto& map : ssanMap->snapshot()->maps) {
        for (int q = 0; q < map.size; ++q) {
            double row = 0;
            for (int k = 0; k < map.size; ++k)
                row += map.at(q, k);
            QVERIFY(std::abs(row - 1.0) < 1e-3);
        }
    }
    QVERIFY(lstmMap->isPlaceholderShown());
    QVERIFY(!lstmMap->hasSnapshot());

    // Both are normal runs in the store, completed, tagged with the comparison, same seed, each with its
    // share of threads; the result strip shows the store's test accuracy.
    RunStore store(db.toStdString());
    auto* table = child<QTableView>(&view, "compareResultsTable");
    QCOMPARE(table->model()->rowCount(), 2);
    for (int i = 0; i < 2; ++i) {
        const qint64 runId = queue->entry(i).runId;
        QVERIFY(runId > 0);
        const auto record = store.run(runId);
        QVERIFY(record);
        QCOMPARE(statusText(record->status), statusText(RunStatus::Completed));
        QVERIFY2(hasTag(*record, view.comparisonTag()), qPrintable(view.comparisonTag()));
        QCOMPARE(record->seed, std::uint64_t(3));
        QVERIFY2(QString::fromStdString(record->device).contains(share == 1 ? QStringLiteral("(1 thread)")
                                                                            : QStringLiteral("(%1 threads)").arg(share)),
                 record->device.c_str());
        int row = -1;
        for (int r = 0; r < 2; ++r) {
            if (table->model()->index(r, ui::ComparisonResultsModel::RunColumn).data(Qt::UserRole).toLongLong() == runId)
                row = r;
        }
        QVERIFY(row >= 0);
        const double shownTest = table->model()->index(row, ui::ComparisonResultsModel::TestColumn).data(Qt::UserRole).toDouble();
        QVERIFY(std::abs(shownTest - RunResult(record->summary()).testValue()) < 1e-9);
        QVERIFY(std::abs(shownTest - 100.0 * record->testAccuracy) < 1e-6);
        QVERIFY(!table->model()->index(row, ui::ComparisonResultsModel::SpeedColumn).data().toString().isEmpty());
    }
    QVERIFY(child<QLabel>(&view, "entryStatus0")->text().contains(QStringLiteral("completed")));
    QVERIFY(!child<QPushButton>(&view, "entryStop0")->isEnabled());

    // The curves export as PNG.
    const QString png = dir.filePath(QStringLiteral("curves.png"));
    QCOMPARE(view.exportPlot(png, 800, 500, 96), QString());
    QVERIFY(QFileInfo(png).size() > 5000);

    // the finished runs replay in step. The bar shows once both ended; at any step each run's curve
    // has exactly its stored points up to it and its map is its latest stored snapshot at or before it; a
    // whole replay takes the chosen time, and pauses where it is.
    auto* replay = view.replay();
    QVERIFY(replay->isVisible());
    const int fullLoss = dataCount(plot, QStringLiteral("trainLossGraph0"));
    QVERIFY(fullLoss > 0);
    QCOMPARE(replay->lastStep(), 200);
    child<QSlider>(replay, "replaySlider")->setValue(100);
    QCOMPARE(replay->step(), 100);
    for (int i = 0; i < 2; ++i) {
        const qint64 runId = view.queue()->entry(i).runId;
        const auto losses = store.metricSeries(runId, "train", "loss");
        const auto upTo = std::count_if(losses.begin(), losses.end(), [](const auto& p) { return p.first <= 100; });
        QCOMPARE(dataCount(plot, QStringLiteral("trainLossGraph%1").arg(i)), static_cast<int>(upTo));
    }
    QVERIFY(ssanMap->snapshot().has_value());
    QCOMPARE(ssanMap->snapshot()->step, 100); // evaluations every 50 steps: the one at 100
    child<QSlider>(replay, "replaySlider")->setValue(99);
    QCOMPARE(ssanMap->snapshot()->step, 50);
    QVERIFY(dataCount(plot, QStringLiteral("trainLossGraph0")) < fullLoss);

    replay->setSeconds(2);
    replay->showStep(0);
    QSignalSpy ended(replay, &ui::RunReplay::finished);
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(child<QPushButton>(replay, "replayButton"), Qt::LeftButton);
    QVERIFY(replay->isPlaying());
    QTest::qWait(700);
    QVERIFY2(replay->step() > 0 && replay->step() < 200, qPrintable(QString::number(replay->step())));
    QVERIFY(QTest::qWaitFor([&] { return ended.count() == 1; }, 10000));
    QVERIFY2(clock.elapsed() >= 1800, qPrintable(QString::number(clock.elapsed()))); // it took the time asked
    QCOMPARE(dataCount(plot, QStringLiteral("trainLossGraph0")), fullLoss);
    QCOMPARE(ssanMap->snapshot()->step, 200);
    QVERIFY(!replay->isPlaying());
}

void TestLiveCompare::stoppingOneStopsOnlyThatOne()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    LiveComparisonView view(db);
    QSignalSpy finished(&view, &LiveComparisonView::allFinished);
    QCOMPARE(view.start({smallConfig("ssan", "rpr", 3000, 16), smallConfig("ssan", "none", 150, 16)}), QString());
    TrainingQueue* queue = view.queue();
    QSignalSpy progress(queue, &TrainingQueue::progress);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(progress.begin(), progress.end(), [](const QList<QVariant>& args) {
                                 return args.at(0).toInt() == 0 && args.at(1).toInt() >= 10;
                             }),
                             120000);
    QTest::mouseClick(child<QPushButton>(&view, "entryStop0"), Qt::LeftButton);
    QVERIFY(!child<QPushButton>(&view, "entryStop0")->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 240000);

    RunStore store(db.toStdString());
    const auto stopped = store.run(queue->entry(0).runId);
    const auto other = store.run(queue->entry(1).runId);
    QVERIFY(stopped && other);
    QCOMPARE(statusText(stopped->status), statusText(RunStatus::Cancelled));
    QVERIFY(stopped->steps < 3000);
    QCOMPARE(statusText(other->status), statusText(RunStatus::Completed));
    QCOMPARE(other->steps, 150);
    QVERIFY(queue->entry(0).state == TrainingQueue::State::Cancelled);
    QVERIFY(queue->entry(1).state == TrainingQueue::State::Completed);
    QVERIFY(child<QLabel>(&view, "entryStatus0")->text().contains(QStringLiteral("cancelled")));
}

void TestLiveCompare::queueStartsRunsAsWorkersFreeUp()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    LiveComparisonView view(db);
    view.setConcurrency(2);
    QSignalSpy finished(&view, &LiveComparisonView::allFinished);
    TrainingQueue* queue = view.queue();
    // When the third starts, one of the first two must have ended.
    bool thirdStartedAfterAnEnd = false, thirdStarted = false;
    int thirdThreads = 0, runningBesideThird = 0;
    connect(queue, &TrainingQueue::entryStateChanged, this, [&](int index) {
        if (index == 2 && queue->entry(2).state == TrainingQueue::State::Running && !thirdStarted) {
            thirdStarted = true;
            thirdThreads = queue->entry(2).threads;
            // Both first runs may have ended before the third starts (a loaded machine): then it trains alone.
            runningBesideThird = queue->runningCount() - 1;
            thirdStartedAfterAnEnd = queue->entry(0).state == TrainingQueue::State::Completed
                || queue->entry(1).state == TrainingQueue::State::Completed;
        }
    });
    QCOMPARE(view.start({smallConfig("ssan", "none", 100, 16), smallConfig("ssan", "none", 150, 16)}), QString());
    QCOMPARE(view.enqueue(smallConfig("cnn", "none", 100, 16)), 2);
    QCOMPARE(queue->concurrency(), 2);
    QVERIFY(queue->entry(2).state == TrainingQueue::State::Queued);
    QCOMPARE(queue->runningCount(), 2);
    QVERIFY(child<QLabel>(&view, "entryStatus2")->text().contains(QStringLiteral("queued")));
    QVERIFY(child<QPushButton>(&view, "entryStop2")->isEnabled()); // a queued run can be taken out

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 240000);
    QVERIFY(thirdStarted);
    QVERIFY(thirdStartedAfterAnEnd);
    QCOMPARE(thirdThreads, TrainingQueue::threadShare(1 + runningBesideThird));
    RunStore store(db.toStdString());
    for (int i = 0; i < 3; ++i) {
        const auto record = store.run(queue->entry(i).runId);
        QVERIFY(record);
        QCOMPARE(statusText(record->status), statusText(RunStatus::Completed));
        QVERIFY(hasTag(*record, view.comparisonTag()));
    }
    QCOMPARE(child<QTableView>(&view, "compareResultsTable")->model()->rowCount(), 3);

    // A queued entry that is cancelled never starts.
    view.setConcurrency(1);
    QCOMPARE(view.start({smallConfig("ssan", "none", 100, 16), smallConfig("ssan", "none", 100, 16)}), QString());
    QVERIFY(queue->entry(1).state == TrainingQueue::State::Queued);
    QTest::mouseClick(child<QPushButton>(&view, "entryStop1"), Qt::LeftButton);
    QVERIFY(queue->entry(1).state == TrainingQueue::State::Cancelled);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 240000);
    QCOMPARE(queue->entry(1).runId, qint64(0));
    QVERIFY(queue->entry(0).state == TrainingQueue::State::Completed);
}

void TestLiveCompare::closingWithFourRunningStoresThemCancelled()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    QString tag;
    std::vector<qint64> runIds;
    {
        auto view = std::make_unique<LiveComparisonView>(db);
        view->resize(1280, 720);
        view->show();
        std::vector<TrainConfig> configs{smallConfig("ssan", "rpr", 5000, 16), smallConfig("ssan", "none", 5000, 16),
                                         smallConfig("lstm", "none", 5000, 16), smallConfig("cnn", "none", 5000, 16)};
        QCOMPARE(view->start(configs), QString());
        TrainingQueue* queue = view->queue();
        QCOMPARE(queue->runningCount(), 4);
        QCOMPARE(queue->entry(3).threads, TrainingQueue::threadShare(4));
        tag = view->comparisonTag();
        const auto allStarted = [queue] {
            for (int i = 0; i < 4; ++i) {
                if (queue->entry(i).runId == 0)
                    return false;
            }
            return true;
        };
        QTRY_VERIFY_WITH_TIMEOUT(allStarted(), 120000);
        for (int i = 0; i < 4; ++i)
            runIds.push_back(queue->entry(i).runId);
        // Four at once, for the eye: a 2 x 2 grid of maps beside the curves.
        QTRY_VERIFY_WITH_TIMEOUT(child<AttentionHeatmap>(view.get(), "entryHeatmap1")->hasSnapshot(), 120000);
        QVERIFY(view->grab().save(QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots/live-compare-four.png")));
        // As the window closes: stop all, wait; then the view goes.
        QElapsedTimer clock;
        clock.start();
        view->stopAll();
        QVERIFY(view->waitAll(60000));
        view.reset();
        QVERIFY2(clock.elapsed() < 60000, "closing must not hang");
    }
    RunStore store(db.toStdString());
    for (qint64 runId : runIds) {
        const auto record = store.run(runId);
        QVERIFY(record);
        QCOMPARE(statusText(record->status), statusText(RunStatus::Cancelled));
        QVERIFY(hasTag(*record, tag));
    }

    // Deleting the view with runs going (no stopAll first) also stops them and stores them cancelled.
    std::vector<qint64> more;
    {
        LiveComparisonView view(db);
        QCOMPARE(view.start({smallConfig("ssan", "none", 5000, 16), smallConfig("cnn", "none", 5000, 16)}), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view.queue()->entry(0).runId > 0 && view.queue()->entry(1).runId > 0, 120000);
        more = {view.queue()->entry(0).runId, view.queue()->entry(1).runId};
    }
    for (qint64 runId : more)
        QCOMPARE(statusText(store.run(runId)->status), statusText(RunStatus::Cancelled));
}

void TestLiveCompare::timeSeriesRunsCompareByRmse()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    LiveComparisonView view(db);
    QSignalSpy finished(&view, &LiveComparisonView::allFinished);
    auto series = [](const char* model) {
        TrainConfig c = smallConfig(model, "none", 40, 16);
        c.dataset = "synthetic-lag";
        c.evalEvery = 20;
        return c;
    };
    // Through the plan, as a lesson on real data arrives: the first run says what it is expected to reach.
    // A lesson that opens a view at its end (TeachingScenario::opens): lessonEnded names it and the first run.
    QSignalSpy ended(&view, &LiveComparisonView::lessonEnded);
    view.setPlan({series("darnn"), series("narx")}, QStringLiteral("lesson"), {QStringLiteral("0.0312 ± 0.0010 test MAE (5 runs)"), QString()},
                 QStringLiteral("faithfulness"));
    QCOMPARE(view.startPlan(std::string(), std::string()), QString());
    QCOMPARE(child<QLabel>(&view, "entryExpected0")->text(), QStringLiteral("expected: 0.0312 ± 0.0010 test MAE (5 runs)"));
    // NARX has no attention: its panel says so while it trains instead of waiting for a map that never comes.
    QTRY_COMPARE_WITH_TIMEOUT(child<AttentionHeatmap>(&view, "entryHeatmap1")->placeholderText(),
                              QStringLiteral("NARX RNN has no attention to show: compare its curves with the others'."), 60000);
    QVERIFY(!child<QLabel>(&view, "entryExpected0")->isHidden());
    QVERIFY(child<QLabel>(&view, "entryExpected1")->isHidden());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 240000);
    QCOMPARE(ended.count(), 1);
    QCOMPARE(ended.at(0).at(0).toString(), QStringLiteral("faithfulness"));
    QCOMPARE(ended.at(0).at(1).toLongLong(), view.queue()->entry(0).runId);
    QCOMPARE(ended.at(0).at(2).toLongLong(), view.queue()->entry(1).runId);
    auto* plot = child<LiveComparisonPlot>(&view, "liveComparisonPlot");
    QCOMPARE(plot->metricName(), QStringLiteral("rmse"));
    for (int i = 0; i < 2; ++i) {
        QVERIFY(dataCount(plot, QStringLiteral("devMetricGraph%1").arg(i)) >= 2);
        QCOMPARE(statusText(view.queue()->entry(i).summary->status), statusText(RunStatus::Completed));
    }
    QVERIFY(child<AttentionHeatmap>(&view, "entryHeatmap0")->hasSnapshot()); // DA-RNN's attention
    auto* table = child<QTableView>(&view, "compareResultsTable");
    QCOMPARE(table->model()->rowCount(), 2);
    QVERIFY(!table->model()->index(0, ui::ComparisonResultsModel::TestColumn).data().toString().contains(QLatin1Char('%')));
    QStringList expected;
    for (int row = 0; row < 2; ++row)
        expected << table->model()->index(row, ui::ComparisonResultsModel::ExpectedColumn).data().toString();
    expected.sort(); // rows come in the order the runs ended
    QCOMPARE(expected, (QStringList{QStringLiteral("0.0312 ± 0.0010 test MAE (5 runs)"), QStringLiteral("—")}));
}

void TestLiveCompare::measureThreadShares()
{
    if (qEnvironmentVariable("ATTNLAB_MEASURE_THREADS") != QLatin1String("1"))
        QSKIP("a measurement: ATTNLAB_MEASURE_THREADS=1 runs it");
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    auto config = [](int threads) {
        TrainConfig c = smallConfig("ssan", "rpr", 300, 64);
        c.evalEvery = 100;
        c.threads = threads;
        return c;
    };
    // One after another on one worker, each with `threads`.
    auto sequential = [&](int threads) {
        ui::TrainingWorker worker(db);
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < 2; ++i) {
            QSignalSpy idle(&worker, &ui::TrainingWorker::idle);
            worker.start(config(threads));
            idle.wait(600000);
        }
        return clock.elapsed() / 1000.0;
    };
    // Both at once through the queue, which gives each cores / 2.
    auto together = [&] {
        TrainingQueue queue(db);
        QSignalSpy done(&queue, &TrainingQueue::allFinished);
        QElapsedTimer clock;
        clock.start();
        queue.begin({config(0), config(0)});
        done.wait(600000);
        return std::make_pair(clock.elapsed() / 1000.0, queue.entry(0).threads);
    };
    // Both at once, each asking for every core (what sharing nothing would do).
    auto oversubscribed = [&] {
        ui::TrainingWorker a(db), b(db);
        QSignalSpy idleA(&a, &ui::TrainingWorker::idle), idleB(&b, &ui::TrainingWorker::idle);
        QElapsedTimer clock;
        clock.start();
        a.start(config(TrainingQueue::cores()));
        b.start(config(TrainingQueue::cores()));
        while ((idleA.count() < 1 || idleB.count() < 1) && clock.elapsed() < 600000)
            QTest::qWait(20);
        return clock.elapsed() / 1000.0;
    };
    const double seq1 = sequential(1);
    const double seqAll = sequential(TrainingQueue::cores());
    const auto [both, share] = together();
    const double over = oversubscribed();
    qInfo("2 x SSAN+RPR d_model 64, 300 steps, %d cores: one after another with 1 thread each %.1f s; "
          "one after another with %d threads each %.1f s; at once with %d thread(s) each (the queue) %.1f s; "
          "at once with %d threads each %.1f s",
          TrainingQueue::cores(), seq1, TrainingQueue::cores(), seqAll, share, both, TrainingQueue::cores(), over);
}

QTEST_MAIN(TestLiveCompare)
#include "test_live_compare.moc"
