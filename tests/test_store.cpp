// The SQLite run store: round trips, crash safety against a real SIGKILLed training process,
// and clear errors for files that are not run stores.
#include "core/RunStore.h"
#include "core/StoreObserver.h"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <sqlite3.h>
#include <signal.h>

#include <fstream>

using namespace attnlab;

namespace {

RunInfo sampleInfo()
{
    RunInfo info;
    info.config.model.model = "ssan";
    info.config.model.position = "rpr";
    info.config.seed = 42;
    info.config.steps = 123;
    info.device = "cpu (2 threads)";
    info.torchVersion = "1.13.1";
    info.parameters = 465605;
    return info;
}

std::string integrityCheck(const std::string& path)
{
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, nullptr);
    std::string result = sqlite3_step(s) == SQLITE_ROW ? reinterpret_cast<const char*>(sqlite3_column_text(s, 0)) : "no row";
    sqlite3_finalize(s);
    sqlite3_close(db);
    return result;
}

} // namespace

class TestStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runReadBackEqualsWhatWasWritten()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.sqlite").toStdString();
        std::int64_t id = 0;
        AttentionSnapshot snapshot{50, {"not", "good"}, {{0, 0, 2, {0.25f, 0.75f, 1.0f, 0.0f}}}};
        {
            RunStore store(path);
            StoreObserver observer(store);
            observer.onStarted(sampleInfo());
            id = observer.runId();
            observer.onMetric({10, "train", "loss", 1.25});
            observer.onMetric({50, "dev", "accuracy", 0.875});
            observer.onAttention(snapshot);
            RunSummary summary;
            summary.status = RunStatus::Completed;
            summary.steps = 123;
            summary.seconds = 4.5;
            summary.bestDevAccuracy = 0.875;
            summary.bestStep = 50;
            summary.testAccuracy = 0.8125;
            summary.parameters = 465605;
            summary.device = "cpu (2 threads)";
            observer.onFinished(summary);
        }
        RunStore store(path); // a fresh connection reads what the first wrote
        const auto run = store.run(id);
        QVERIFY(run.has_value());
        QCOMPARE(QString::fromStdString(toString(run->status)), QString("completed"));
        QCOMPARE(run->model, std::string("ssan"));
        QCOMPARE(run->position, std::string("rpr"));
        QCOMPARE(run->seed, 42ULL);
        QCOMPARE(run->steps, 123);
        QCOMPARE(run->seconds, 4.5);
        QCOMPARE(run->bestDevAccuracy, 0.875);
        QCOMPARE(run->bestStep, 50);
        QCOMPARE(run->testAccuracy, 0.8125);
        QCOMPARE(run->parameters, 465605LL);
        QCOMPARE(run->device, std::string("cpu (2 threads)"));
        QCOMPARE(run->torchVersion, std::string("1.13.1"));
        QVERIFY(!run->appVersion.empty());
        QVERIFY(!run->finishedAt.empty());
        QCOMPARE(TrainConfig::fromJson(run->configJson).toJson(), sampleInfo().config.toJson());
        const auto metrics = store.metrics(id);
        QCOMPARE(metrics.size(), std::size_t(2));
        QCOMPARE(metrics[0].name, std::string("loss"));
        QCOMPARE(metrics[0].value, 1.25);
        QCOMPARE(metrics[1].split, std::string("dev"));
        QCOMPARE(metrics[1].step, 50);
        const auto attention = store.latestAttention(id);
        QVERIFY(attention.has_value());
        QCOMPARE(attention->tokens, snapshot.tokens);
        QCOMPARE(attention->maps[0].weights, snapshot.maps[0].weights);
        QCOMPARE(store.listRuns().size(), std::size_t(1));
    }

    void runOfALiveProcessIsNotMarkedInterrupted()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.sqlite").toStdString();
        RunStore writer(path);
        const auto id = writer.beginRun(sampleInfo());
        RunStore reader(path); // opening marks only dead owners' runs
        QCOMPARE(QString::fromStdString(toString(reader.run(id)->status)), QString("running"));
    }

    void killedTrainingProcessLeavesAnInterruptedRun()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.sqlite");
        QProcess child;
        child.start(ATTNLAB_CLI_PATH, {"train", "--dataset", "synthetic-sentiment", "--model", "ssan", "--position",
                                       "rpr", "--steps", "1000000", "--eval-every", "40", "--db", path, "--threads", "1"});
        QVERIFY(child.waitForStarted());
        // Wait until the child has flushed some metrics, then let it write for a while longer.
        std::int64_t flushed = 0;
        QElapsedTimer timer;
        timer.start();
        while (flushed == 0 && timer.elapsed() < 60000) {
            QTest::qWait(200);
            if (!QFile::exists(path))
                continue;
            RunStore peek(path.toStdString());
            const auto runs = peek.listRuns();
            if (!runs.empty())
                flushed = static_cast<std::int64_t>(peek.metrics(runs.front().id).size());
        }
        QVERIFY2(flushed > 0, "the child never flushed a metric");
        QTest::qWait(1500);
        ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(10000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        QCOMPARE(integrityCheck(path.toStdString()), std::string("ok"));
        RunStore store(path.toStdString());
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(toString(runs[0].status)), QString("interrupted"));
        const auto metrics = store.metrics(runs[0].id);
        QVERIFY(static_cast<std::int64_t>(metrics.size()) > flushed); // the last 1.5 s were flushed too
        QCOMPARE(runs[0].steps, metrics.back().step);
    }

    void notADatabaseGivesAClearError()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("garbage.sqlite").toStdString();
        std::ofstream(path) << std::string(4096, 'x');
        try {
            RunStore store(path);
            QFAIL("opening garbage should throw");
        } catch (const std::runtime_error& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QString::fromStdString(path)), qPrintable(message));
            QVERIFY2(message.contains("not a database"), qPrintable(message));
        }
        // The file is left as it was: nothing is lost.
        std::ifstream in(path);
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(content, std::string(4096, 'x'));
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "test_store.moc"
