// attnlab-cli sweep as a user runs it: a grid expanded (the exact list, skips with reasons), a local sweep
// whose every run lands in the store once and is not trained again when the sweep is run again (resume),
// Ctrl-C leaving completed runs and the cancelled one marked, and a sweep submitted to a real single-node
// Slurm cluster (../shared/tools/slurm-single-node.sh), collected twice.
#include "tests/support/CliProcess.h"

#include "core/store/RunStore.h"
#include "core/sweep/LocalExecutor.h"
#include "core/sweep/RunQueue.h"
#include "core/sweep/SweepPlan.h"
#include "core/training/ComputeDevice.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QScopeGuard>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <csignal>
#include <unistd.h>

namespace {

// Tiny runs: a few seconds each on one core.
const QString kTiny = "dataset=synthetic-sentiment;steps=20;eval_every=10;log_every=10;d_model=16;device=cpu";

QJsonArray storedRuns(const QString& db)
{
    const auto r = runCli({"runs", "list", "--db", db, "--json"});
    return r.code == 0 ? r.json().array() : QJsonArray();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return f.fileName();
}

} // namespace

using attnlab::RunQueue;

class TestSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The queue the sweep's executor and the window's side-by-side training share: what starts, in which
    // order, with which share of the cores, and cancelling queued runs.
    void runQueueStartsInOrderAndSharesTheCores()
    {
        attnlab::RunQueue q(/*cores*/ 8, /*concurrency*/ 3);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(q.add(), i);
        auto starts = q.startable();
        QCOMPARE(starts.size(), std::size_t(3));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(starts[std::size_t(i)].index, i);
            QCOMPARE(starts[std::size_t(i)].threads, 8 / 3); // three at once share 8 cores: 2 each
            q.setState(i, RunQueue::State::Running);
        }
        QVERIFY(q.startable().empty()); // three are going
        QVERIFY(!q.cancelQueued(1));    // running: the executor stops it
        QVERIFY(q.cancelQueued(3));     // queued: leaves the queue
        q.setState(0, RunQueue::State::Completed);
        starts = q.startable();
        QCOMPARE(starts.size(), std::size_t(1));
        QCOMPARE(starts[0].index, 4);     // 3 was cancelled
        QCOMPARE(starts[0].threads, 8 / 3);
        QCOMPARE(q.startable(1)[0].threads, 1); // a fixed budget (the sweep's --threads)
        q.setState(4, RunQueue::State::Running);
        q.setState(1, RunQueue::State::Cancelled);
        q.setState(2, RunQueue::State::Failed);
        q.setState(4, RunQueue::State::Completed);
        QVERIFY(!q.active());
        QCOMPARE(q.count(RunQueue::State::Completed), 2);
        QCOMPARE(q.count(RunQueue::State::Cancelled), 2);
        QCOMPARE(q.count(RunQueue::State::Failed), 1);
        // Two at once on 2 cores: one thread each; the measured sweep default on 2 cores.
        attnlab::RunQueue small(2, 2);
        small.add();
        small.add();
        small.add();
        QCOMPARE(small.startable().size(), std::size_t(2));
        QCOMPARE(small.startable()[0].threads, 1);
        small.cancelAllQueued();
        QVERIFY(!small.active());
        QCOMPARE(RunQueue::defaultWorkers(2), 2);
        QCOMPARE(RunQueue::defaultWorkers(16), 8);
        QCOMPARE(RunQueue::threadShare(16, 8), 2);
        QCOMPARE(RunQueue::threadShare(2, 4), 1);
    }

    // Resuming matches a stored run by its key: what the trainer fills in from the vectors file (their width)
    // must not make a completed run look new (it did: every run with embeddings was trained again).
    void runKeyIgnoresWhatTheTrainerDerives()
    {
        attnlab::TrainConfig planned;
        planned.dataset = "sst-fine";
        planned.embeddingsPath = "embeddings/glove.6B.100d.sentiment-vocab.txt.gz";
        attnlab::TrainConfig stored = planned;
        stored.embeddingsPath = "/data/embeddings/glove.6B.100d.sentiment-vocab.txt.gz";
        stored.model.embeddingDim = 100;
        stored.threads = 1;
        QCOMPARE(attnlab::SweepPlan::runKey(stored), attnlab::SweepPlan::runKey(planned));
        attnlab::TrainConfig other = planned;
        other.learningRate = planned.learningRate / 2;
        QVERIFY(attnlab::SweepPlan::runKey(other) != attnlab::SweepPlan::runKey(planned));
        // Without vectors the width is the user's choice and part of the key.
        attnlab::TrainConfig random = planned, wider = planned;
        random.embeddingsPath.clear();
        wider.embeddingsPath.clear();
        wider.model.embeddingDim = 300;
        QVERIFY(attnlab::SweepPlan::runKey(random) != attnlab::SweepPlan::runKey(wider));
    }

    // The Cartesian product in order (first grid key slowest, seeds innermost), lstm's positions other than
    // none skipped with the registry's reason, keys stable and distinct, spec mistakes named.
    void dryRunListsTheExactGrid()
    {
        QTemporaryDir dir;
        const QString spec = writeFile(dir, "grid.json", R"({"name": "small", "base": {"steps": 20},
            "grid": {"model": ["ssan", "lstm"], "position": ["none", "rpr"], "learning_rate": [0.01]}, "repeats": 2})");
        const QString db = dir.filePath("runs.sqlite");
        auto r = runCli({"sweep", spec, "--dry-run", "--json", "--db", db});
        QCOMPARE(r.code, 0);
        const auto o = r.lastJson();
        QStringList labels;
        QSet<QString> keys;
        for (const auto run : o["runs"].toArray()) {
            labels << run.toObject()["label"].toString();
            keys << run.toObject()["key"].toString();
            QCOMPARE(run.toObject()["key"].toString().size(), 12);
            QCOMPARE(run.toObject()["done"].toBool(), false);
        }
        QCOMPARE(labels, QStringList({"synthetic-sentiment ssan/none seed 1 learning_rate=0.01",
                                      "synthetic-sentiment ssan/none seed 2 learning_rate=0.01",
                                      "synthetic-sentiment ssan/rpr seed 1 learning_rate=0.01",
                                      "synthetic-sentiment ssan/rpr seed 2 learning_rate=0.01",
                                      "synthetic-sentiment lstm/none seed 1 learning_rate=0.01",
                                      "synthetic-sentiment lstm/none seed 2 learning_rate=0.01"}));
        QCOMPARE(keys.size(), 6);
        const auto skipped = o["skipped"].toArray();
        QCOMPARE(skipped.size(), 2);
        QCOMPARE(skipped[0].toObject()["label"].toString(), QString("synthetic-sentiment lstm/rpr seed 1 learning_rate=0.01"));
        QCOMPARE(skipped[0].toObject()["reason"].toString(), QString("model 'lstm' takes position none only, not 'rpr'"));
        QVERIFY(!QFile::exists(db)); // a dry run writes nothing

        // The same grid from flags is the same sweep: same id, same runs.
        r = runCli({"sweep", "--models", "ssan,lstm", "--positions", "none,rpr", "--grid", "learning_rate=0.01",
                    "--set", "steps=20", "--repeat", "2", "--dry-run", "--json", "--db", db});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.lastJson()["sweep"].toString(), o["sweep"].toString());
        QVERIFY(o["sweep"].toString().startsWith("sw-"));
        r = runCli({"sweep", spec, "--dry-run", "--db", db}); // the human list
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("sweep " + o["sweep"].toString() + " (small): 6 runs, 0 already completed"), qPrintable(r.out));
        QCOMPARE(r.out.count("skipped  "), 2);

        // Mistakes: one line naming the file and the key, exit 2.
        const QString typo = writeFile(dir, "typo.json", R"({"grid": {"modle": ["ssan"]}})");
        r = runCli({"sweep", typo, "--dry-run"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("attnlab-cli: " + typo + ": grid: unknown key 'modle' (TrainConfig keys:"), qPrintable(r.err));
        const QString wrongType = writeFile(dir, "type.json", R"({"grid": {"steps": [20, 0.5]}})");
        r = runCli({"sweep", wrongType, "--dry-run"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(wrongType + ": grid: key 'steps' expects an integer, got 0.5"), qPrintable(r.err));
        r = runCli({"sweep", "--models", "ssan,lsmt", "--dry-run"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("model 'lsmt' is unknown (known: ssan,"), qPrintable(r.err));
        r = runCli({"sweep", "--seeds", "1,2", "--repeat", "3", "--dry-run"});
        QCOMPARE(r.code, 2);
        QCOMPARE(runCli({"sweep", "--help"}).code, 0);
    }

    // a grid that never names a position gives each model its own default (LSTM none, SSAN rpr), so
    // no run is skipped; a preset's position stays with the preset's own model.
    void unwrittenPositionsFollowTheModel()
    {
        QTemporaryDir dir;
        const QString spec = writeFile(dir, "models.json", R"({"base": {"dataset": "synthetic-sentiment", "steps": 20},
            "grid": {"model": ["ssan", "lstm"], "seed": [1, 2, 3]}})");
        auto r = runCli({"sweep", spec, "--dry-run", "--json", "--db", dir.filePath("runs.sqlite")});
        QCOMPARE(r.code, 0);
        QStringList labels;
        for (const auto run : r.lastJson()["runs"].toArray())
            labels << run.toObject()["label"].toString();
        QCOMPARE(labels, QStringList({"synthetic-sentiment ssan/rpr seed 1", "synthetic-sentiment ssan/rpr seed 2",
                                      "synthetic-sentiment ssan/rpr seed 3", "synthetic-sentiment lstm/none seed 1",
                                      "synthetic-sentiment lstm/none seed 2", "synthetic-sentiment lstm/none seed 3"}));
        QCOMPARE(r.lastJson()["skipped"].toArray().size(), 0);
        // The default the model has with train, not the SAN's rpr where it happens to apply: the translation
        // Transformers start sinusoidal (as `train --model transformer-seq2seq` does).
        const QString translation = writeFile(dir, "translation.json", R"({"base": {"dataset": "synthetic-reverse", "steps": 20},
            "grid": {"model": ["bahdanau", "transformer-seq2seq", "birnn-transformer"]}})");
        r = runCli({"sweep", translation, "--dry-run", "--json", "--db", dir.filePath("runs.sqlite")});
        QCOMPARE(r.code, 0);
        labels.clear();
        for (const auto run : r.lastJson()["runs"].toArray())
            labels << run.toObject()["label"].toString();
        QCOMPARE(labels, QStringList({"synthetic-reverse bahdanau/none seed 1", "synthetic-reverse transformer-seq2seq/sinusoidal seed 1",
                                      "synthetic-reverse birnn-transformer/sinusoidal seed 1"}));
        r = runCli({"sweep", "--presets", "teach-long-range-ssan-rpr", "--models", "ssan,cnn", "--seeds", "1", "--dry-run",
                    "--json", "--db", dir.filePath("runs.sqlite")});
        QCOMPARE(r.code, 0);
        labels.clear();
        for (const auto run : r.lastJson()["runs"].toArray())
            labels << run.toObject()["label"].toString();
        QCOMPARE(labels.size(), 2);
        QVERIFY2(labels[0].contains("ssan/rpr") && labels[1].contains("cnn/none"), qPrintable(labels.join(" | ")));
    }

    // 2 models x 2 seeds with 2 workers: each run in the store exactly once, tagged with the sweep, its stored
    // configuration giving back the planned key; the same sweep again trains nothing.
    void localSweepStoresEachRunOnceAndResumes()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        const QStringList sweep = {"sweep", "--models", "ssan,bow", "--positions", "none", "--seeds", "1,2", "--set", kTiny,
                                   "--workers", "2", "--threads", "1", "--db", db, "--json"};
        auto r = runCli(sweep);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto first = r.lastJson();
        const QString id = first["sweep"].toString();
        QCOMPARE(first["runs"].toArray().size(), 4);
        QCOMPARE(first["already_done"].toInt(), 0);
        for (const auto run : first["runs"].toArray())
            QCOMPARE(run.toObject()["status"].toString(), QString("completed"));

        const auto planned = runCli(sweep + QStringList{"--dry-run"}).lastJson()["runs"].toArray();
        QCOMPARE(planned.size(), 4);
        auto stored = storedRuns(db);
        QCOMPARE(stored.size(), 4);
        QSet<QString> seen;
        for (const auto s : stored) {
            const auto run = s.toObject();
            QCOMPARE(run["status"].toString(), QString("completed"));
            QVERIFY(run["tags"].toArray().contains(QJsonValue("sweep:" + id)));
        }
        {
            const attnlab::RunStore store(db.toStdString());
            for (const auto& record : store.listRuns())
                seen << QString::fromStdString(attnlab::SweepPlan::runKeyOfJson(record.configJson));
        }
        QSet<QString> plannedKeys;
        for (const auto p : planned)
            plannedKeys << p.toObject()["key"].toString();
        QCOMPARE(seen, plannedKeys); // each planned run once, recognisable by its key

        r = runCli(sweep); // resume: nothing left
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.lastJson()["runs"].toArray().size(), 0);
        QCOMPARE(r.lastJson()["already_done"].toInt(), 4);
        QCOMPARE(storedRuns(db).size(), 4);
        r = runCli({"sweep", "status", id, "--db", db, "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.lastJson()["counts"].toObject()["done"].toInt(), 4);
    }

    // Ctrl-C (SIGINT to the sweep alone: it passes it on): the run in progress is stored as cancelled, exit 130;
    // the next start trains it again and finishes.
    void interruptedSweepMarksTheRunCancelled()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("runs.sqlite");
        const QStringList sweep = {"sweep", "--models", "ssan", "--positions", "none", "--seeds", "1",
                                   "--set", "dataset=synthetic-sentiment;steps=100000;eval_every=1000;d_model=16;device=cpu",
                                   "--workers", "1", "--threads", "1", "--db", db, "--json"};
        QProcess p;
        p.start(QStringLiteral(ATTNLAB_CLI_PATH), sweep);
        QVERIFY(p.waitForStarted());
        // Wait until the run is in the store (running), then interrupt.
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 60000) {
            const auto runs = storedRuns(db);
            if (!runs.isEmpty() && runs[0].toObject()["status"].toString() == "running")
                break;
            QThread::msleep(300);
        }
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 130, qPrintable(QString::fromUtf8(p.readAllStandardError())));
        const auto runs = storedRuns(db);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject()["status"].toString(), QString("cancelled"));
        const QString id = QJsonDocument::fromJson(p.readAllStandardOutput().trimmed()).object()["sweep"].toString();
        auto r = runCli({"sweep", "status", id, "--db", db, "--json"});
        QCOMPARE(r.lastJson()["counts"].toObject()["incomplete"].toInt(), 1);
    }

    // --gpus N spreads the workers over the GPUs; asking for GPUs that are not there fails before any run.
    void localWorkersShareTheGpus()
    {
        QCOMPARE(attnlab::LocalExecutor::deviceOfWorker(1, 0), std::string());
        QCOMPARE(attnlab::LocalExecutor::deviceOfWorker(1, 2), std::string("cuda:0"));
        QCOMPARE(attnlab::LocalExecutor::deviceOfWorker(2, 2), std::string("cuda:1"));
        QCOMPARE(attnlab::LocalExecutor::deviceOfWorker(3, 2), std::string("cuda:0"));
        QCOMPARE(attnlab::LocalExecutor::deviceOfWorker(4, 1), std::string("cuda:0"));
        if (attnlab::ComputeDevice::cudaDeviceCount() >= 64)
            QSKIP("this machine has 64 GPUs");
        QTemporaryDir dir;
        const auto r = runCli({"sweep", "--models", "bow", "--positions", "none", "--seeds", "1", "--set", kTiny, "--gpus", "64",
                               "--db", dir.filePath("runs.sqlite")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("device: cuda:63 was requested but"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("runs.sqlite")));
    }

    // More runs than the cluster's MaxArraySize: several arrays, each within it, every run in exactly one.
    // sbatch, squeue and scontrol are stand-ins on PATH that record what they were asked.
    void slurmArraysAreSplitAtMaxArraySize()
    {
        QTemporaryDir dir;
        const QString bin = dir.filePath("bin");
        QDir().mkpath(bin);
        const auto tool = [&](const QString& name, const QByteArray& body) {
            const QString path = writeFile(dir, "bin/" + name, "#!/bin/sh\n" + body);
            QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
        };
        tool("scontrol", "echo 'MaxArraySize            = 2'\n");
        tool("squeue", "exit 0\n");
        tool("sbatch", "n=$(ls " + dir.filePath("bin").toUtf8() + "/job-* 2>/dev/null | wc -l); n=$((n + 100))\n"
                       "echo \"$@\" > " + dir.filePath("bin").toUtf8() + "/job-$n; echo $n\n");
        const QString db = dir.filePath("runs.sqlite");
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", bin + ":" + env.value("PATH"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ATTNLAB_CLI_PATH), {"sweep", "--models", "bow", "--positions", "none", "--seeds", "1,2,3,4,5",
                                                   "--set", kTiny, "--executor", "slurm", "--array-limit", "1",
                                                   "--gpus-per-task", "1", "--db", db, "--json"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const auto o = QJsonDocument::fromJson(p.readAllStandardOutput().trimmed()).object();
        QCOMPARE(o["jobs"].toArray(), QJsonArray({"100", "101", "102"}));
        { // a task's GPU reaches its run: Slurm's CUDA_VISIBLE_DEVICES makes it cuda:0 there
            QFile script(QDir(o["folder"].toString()).filePath("submit-0.sh"));
            QVERIFY(script.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(script.readAll());
            QVERIFY(text.contains("#SBATCH --gpus-per-task=1\n"));
            QVERIFY(text.contains(" --device cuda:0 --json"));
        }
        const QDir folder(o["folder"].toString());
        QStringList tasks, arrays;
        for (int n = 0; n < 3; ++n) {
            QFile t(folder.filePath(QString("submit-%1.tasks").arg(n)));
            QVERIFY(t.open(QIODevice::ReadOnly));
            tasks << QString::fromUtf8(t.readAll()).trimmed().replace('\n', ',');
            QFile script(folder.filePath(QString("submit-%1.sh").arg(n)));
            QVERIFY(script.open(QIODevice::ReadOnly));
            for (const auto& line : QString::fromUtf8(script.readAll()).split('\n'))
                if (line.startsWith("#SBATCH --array="))
                    arrays << line.mid(16);
        }
        QCOMPARE(tasks, QStringList({"0,1", "2,3", "4"}));
        QCOMPARE(arrays, QStringList({"0-1%1", "0-1%1", "0-0%1"}));
    }

    // A real Slurm: three tiny runs as one job array, collected into the store once; collecting again adds
    // nothing; a failing run is reported with its log.
    void slurmSweepIsCollectedOnce()
    {
        if (geteuid() != 0)
            QSKIP("Slurm sweep test: needs root to bring up the single-node cluster (run the tests as root, as CI does)");
        QString script = qEnvironmentVariable("ATTNLAB_SLURM_SCRIPT");
        if (script.isEmpty() && !qEnvironmentVariable("ATTNLAB_SHARED_TOOLS").isEmpty())
            script = qEnvironmentVariable("ATTNLAB_SHARED_TOOLS") + "/slurm-single-node.sh";
        if (script.isEmpty())
            script = QStringLiteral(ATTNLAB_SOURCE_DIR "/../shared/tools/slurm-single-node.sh");
        if (!QFile::exists(script))
            QSKIP(qPrintable("Slurm sweep test: no cluster script at " + script + " (set ATTNLAB_SLURM_SCRIPT)"));
        // Leave the machine as found: a cluster this test brings up, it takes down again (the script stops
        // only the daemons it started).
        QProcess ping;
        ping.start("scontrol", {"ping"});
        const bool wasUp = ping.waitForFinished(20000) && ping.readAllStandardOutput().contains("UP");
        const auto down = qScopeGuard([&] {
            if (!wasUp)
                QProcess::execute("bash", {script, "down"});
        });
        QProcess up;
        up.start("bash", {script, "up"});
        if (!up.waitForFinished(600000) || up.exitCode() != 0)
            QSKIP(qPrintable("Slurm sweep test: '" + script + " up' failed: " +
                             QString::fromUtf8(up.readAllStandardError()).trimmed().split('\n').last()));

        // Under /tmp, not the build's temporary folder: slurmd (root, same machine) must see the files.
        QTemporaryDir dir(QDir::tempPath() + "/attnlab-sweep-XXXXXX");
        const QString db = dir.filePath("runs.sqlite");
        auto r = runCli({"sweep", "--models", "bow", "--positions", "none", "--seeds", "1,2,3", "--set", kTiny,
                         "--executor", "slurm", "--threads", "1", "--time", "10", "--db", db, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString id = r.lastJson()["sweep"].toString();
        QCOMPARE(r.lastJson()["submitted"].toInt(), 3);
        QCOMPARE(r.lastJson()["jobs"].toArray().size(), 1);

        r = runCli({"sweep", "collect", id, "--wait", "--db", db, "--json"}, 240000);
        QVERIFY2(r.code == 0, qPrintable(r.err + r.out));
        QCOMPARE(r.lastJson()["added"].toInt(), 3);
        QCOMPARE(r.lastJson()["counts"].toObject()["done"].toInt(), 3);
        auto stored = storedRuns(db);
        QCOMPARE(stored.size(), 3);
        QSet<qint64> seeds;
        for (const auto s : stored) {
            QCOMPARE(s.toObject()["status"].toString(), QString("completed"));
            seeds << s.toObject()["seed"].toInteger();
        }
        QCOMPARE(seeds, QSet<qint64>({1, 2, 3}));

        r = runCli({"sweep", "collect", id, "--db", db, "--json"}); // again: nothing new
        QCOMPARE(r.code, 0);
        QCOMPARE(r.lastJson()["added"].toInt(), 0);
        QCOMPARE(r.lastJson()["skipped"].toInt(), 3);
        QCOMPARE(storedRuns(db).size(), 3);
        r = runCli({"sweep", "--models", "bow", "--positions", "none", "--seeds", "1,2,3", "--set", kTiny,
                    "--executor", "slurm", "--db", db, "--json"}); // resubmitting submits nothing
        QCOMPARE(r.code, 0);
        QCOMPARE(r.lastJson()["submitted"].toInt(), 0);

        // A run that cannot start (csv-text without its file): collect says which, with its log, and exits 1.
        r = runCli({"sweep", "--models", "bow", "--positions", "none", "--set",
                    "dataset=csv-text;steps=20;eval_every=10;device=cpu", "--executor", "slurm", "--db", db, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString failing = r.lastJson()["sweep"].toString();
        r = runCli({"sweep", "collect", failing, "--wait", "--db", db, "--json"}, 240000);
        QCOMPARE(r.code, 1);
        const auto problems = r.lastJson()["problems"].toArray();
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0].toObject()["state"].toString(), QString("failed"));
        QFile log(problems[0].toObject()["log"].toString());
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY2(log.readAll().contains("csv-text"), qPrintable(log.fileName()));
        QCOMPARE(storedRuns(db).size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "test_sweep.moc"
