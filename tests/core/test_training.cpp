// Real training on the synthetic data: accuracy targets, the value of position information,
// cancellation, failures as results, determinism, checkpoints, probes, early stopping, and the capturable
// step against today's. The step's parts by hand (step statistics, Adam, ADADELTA): test_training_step.
#include "core/data/install/Sha256.h"
#include "core/data/readers/SyntheticSentiment.h"
#include "core/data/Vocabulary.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ClassificationTask.h"
#include "core/nn/training/ThreadGovernor.h"
#include "core/platform/CancelToken.h"
#include "core/training/Trainer.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <chrono>

using namespace attnlab;

namespace {

// Records what the trainer reports.
class RecordingObserver : public TrainingObserver {
public:
    int started = 0, finished = 0, progress = 0, snapshots = 0;
    std::vector<MetricPoint> metrics;
    RunSummary summary;
    RunInfo info;
    void onStarted(const RunInfo& i) override
    {
        ++started;
        info = i;
    }
    void onProgress(const ProgressEvent&) override { ++progress; }
    void onMetric(const MetricPoint& p) override { metrics.push_back(p); }
    AttentionSnapshot lastSnapshot;
    std::vector<AttentionSnapshot> probes; // every probe's snapshot, in the order reported
    void onAttention(const AttentionSnapshot& s) override
    {
        probes.push_back(s);
        if (s.probe == 0) { // the probe sentence: one per evaluation
            ++snapshots;
            lastSnapshot = s;
        }
    }
    void onFinished(const RunSummary& s) override { ++finished; summary = s; }
    std::vector<CheckpointRef> checkpoints;
    void onCheckpoint(const CheckpointRef& c) override { checkpoints.push_back(c); }
};

TrainConfig quickConfig(const std::string& model, const std::string& position, int steps = 600)
{
    TrainConfig c;
    c.model.model = model;
    c.model.position = position;
    c.model.dModel = 64;
    c.steps = steps;
    c.evalEvery = 50;
    c.seed = 3;
    c.device = "cpu";
    return c;
}

RunSummary train(const TrainConfig& config, const TextDataset& data, RecordingObserver& observer)
{
    CancelToken cancel;
    return Trainer(config).run(data, observer, cancel);
}

} // namespace

class TestTraining : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The thread count of a CPU run whose cores other processes want, fed known step times and CPU times.
    // Idle (each thread on a core all the time): nothing changes, so a seed's numbers stay as they were. Load comes
    // (two threads' steps 30x slower, each thread on a core 30% of the time): one thread is tried and kept. On one
    // thread under load (65%) nothing is tried; when the load leaves (100%) every core is tried and kept again. A
    // trial that loses waits kCooldown steps, then twice that. Each change is a note.
    void threadGovernorFollowsTheLoad()
    {
        using G = ThreadGovernor;
        G g(2);
        int step = 0;
        // seconds a step with two threads and with one, and the share of that time each thread had a core
        const auto run = [&](int steps, double twoSeconds, double twoShare, double oneSeconds, double oneShare) {
            for (int i = 0; i < steps; ++i) {
                const bool two = g.threads() == 2;
                g.record(++step, two ? twoSeconds : oneSeconds, two ? 2 * twoSeconds * twoShare : oneSeconds * oneShare);
            }
        };
        QCOMPARE(g.threads(), 2);
        run(400, 0.005, 1.0, 0.010, 1.0); // idle: two threads twice as fast as one, both always on a core
        QCOMPARE(g.threads(), 2);
        QCOMPARE(g.trials(), 0);
        run(1, 0.150, 0.3, 0.0075, 0.65); // both cores taken: a 150 ms step, each thread on a core 30% of it
        QCOMPARE(g.threads(), 1);         // tried at once (over the window's 0.25 s the share is 0.58, under 0.75)
        run(G::kWarmup + G::kSample, 0.150, 0.3, 0.0075, 0.65);
        QCOMPARE(g.threads(), 1); // kept: 7.5 ms against the window's mean of 11.9 ms
        QCOMPARE(g.changes(), 1);
        QCOMPARE(g.notes().size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(g.notes().front()).startsWith("threads 2 -> 1 at step 407: a step took 1"), // ~11.9 ms
                 g.notes().front().c_str());
        QVERIFY2(QString::fromStdString(g.notes().front()).contains("with 2, 7.5 ms with 1 (the cores are busy elsewhere: each thread had a core 58%"),
                 g.notes().front().c_str());
        run(1000, 0.150, 0.3, 0.0075, 0.65); // still busy: one thread gets a core 65% of the time, nothing tried
        QCOMPARE(g.trials(), 1);
        QCOMPARE(g.threads(), 1);
        run(100, 0.0025, 1.0, 0.005, 1.0); // the load left: every core tried, 2x faster, kept
        QCOMPARE(g.threads(), 2);
        QCOMPARE(g.changes(), 2);
        QVERIFY2(QString::fromStdString(g.notes().back()).contains("the cores are free again"), g.notes().back().c_str());

        // A busy machine where one thread is no faster (a large model): tried, then again kCooldown steps after
        // the trial, then twice that; the count stays.
        G big(2);
        int s = 0, trialsSeen = 0;
        std::vector<int> trialSteps;
        for (; s < 1000;) {
            const bool two = big.threads() == 2;
            if (big.trials() != trialsSeen) {
                trialsSeen = big.trials();
                trialSteps.push_back(s);
            }
            big.record(++s, two ? 0.100 : 0.190, two ? 2 * 0.100 * 0.3 : 0.190 * 0.65);
        }
        QCOMPARE(big.threads(), 2);
        QCOMPARE(big.changes(), 0);
        QVERIFY(big.notes().empty());
        // The window's 0.25 s at step 4 (the run's first step is not read), then 100, 200, 400 steps of wait.
        QCOMPARE(trialSteps, (std::vector<int>{4, 110, 316, 722}));
        QCOMPARE(trialSteps[1] - trialSteps[0], G::kWarmup + G::kSample + G::kCooldown); // the trial, then the wait
        QCOMPARE(trialSteps[2] - trialSteps[1], G::kWarmup + G::kSample + 2 * G::kCooldown);
        {
            G single(1); // nothing to choose
            for (int i = 1; i <= 50; ++i)
                QVERIFY(!single.record(i, 0.1, 0.01));
            QCOMPARE(single.threads(), 1);
        }
    }

    // Other processes' threads fill every core as the run starts: it starts on one thread, said in its notes, and
    // tries every core as soon as its thread has a core to itself; with a core to spare it starts on every core.
    void threadGovernorStartsOnOneThreadWhenTheCoresAreTaken()
    {
        using G = ThreadGovernor;
        G spare(2, 1);
        QCOMPARE(spare.threads(), 2);
        QCOMPARE(spare.changes(), 0);
        QVERIFY(spare.notes().empty());
        G taken(2, 2);
        QCOMPARE(taken.threads(), 1);
        QCOMPARE(taken.changes(), 1);
        QCOMPARE(taken.notes().size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(taken.notes().front()),
                 QStringLiteral("threads 2 -> 1 at the start: 2 threads of other processes were running on the 2 cores"));
        int step = 0;
        for (; step < 200 && taken.threads() == 1; ++step) // busy: one thread gets a core 65% of the time, nothing tried
            taken.record(step + 1, 0.0075, 0.0075 * 0.65);
        QCOMPARE(taken.threads(), 1);
        QCOMPARE(taken.trials(), 0);
        for (int i = 0; i < 100; ++i) { // the load left: every core tried, 2x faster, kept
            const bool two = taken.threads() == 2;
            taken.record(++step, two ? 0.0025 : 0.005, two ? 0.005 : 0.005);
        }
        QCOMPARE(taken.threads(), 2);
        QCOMPARE(taken.changes(), 2);
        QVERIFY2(QString::fromStdString(taken.notes().back()).contains("the cores are free again"), taken.notes().back().c_str());
        QCOMPARE(G(1, 5).threads(), 1); // one core: nothing to choose, nothing said
        QVERIFY(G(1, 5).notes().empty());
    }

    void syntheticDataFollowsItsGrammar()
    {
        SyntheticSentiment::Options o;
        const auto data = SyntheticSentiment::generate(o);
        QCOMPARE(static_cast<int>(data.train.size()), o.trainSize);
        QCOMPARE(data.numClasses(), 5);
        QCOMPARE(SyntheticSentiment::labelOf({"it", "is", "very", "good"}), 4);
        QCOMPARE(SyntheticSentiment::labelOf({"it", "is", "not", "very", "good"}), 1);
        QCOMPARE(SyntheticSentiment::labelOf({"it", "is", "good", "but", "the", "plot", "is", "boring"}), 1);
        QCOMPARE(SyntheticSentiment::labelOf({"the", "plot", "is", "boring", "but", "it", "is", "good"}), 3);
        QCOMPARE(SyntheticSentiment::labelOf({"it", "is", "not", "long"}), 2);
        // Deterministic by seed, different across seeds.
        QCOMPARE(SyntheticSentiment::generate(o).dev[5].tokens, data.dev[5].tokens);
        o.seed = 8;
        QVERIFY(SyntheticSentiment::generate(o).dev[5].tokens != data.dev[5].tokens);
        // Every class occurs.
        std::vector<int> counts(5, 0);
        for (const auto& e : data.train)
            ++counts[e.label];
        for (int c : counts)
            QVERIFY(c > 200);
    }

    void ssanWithRprLearnsTheSyntheticTask()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        const auto started = std::chrono::steady_clock::now();
        const auto summary = train(quickConfig("ssan", "rpr"), data, observer);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        qInfo("SSAN+RPR: best dev %.3f at step %d, test %.3f, %.1f s", summary.bestDevAccuracy, summary.bestStep,
              summary.testAccuracy, seconds);
        QCOMPARE(QString::fromStdString(toString(summary.status)), QString("completed"));
        QVERIFY2(summary.bestDevAccuracy >= 0.90, "SSAN+RPR should reach 90% dev accuracy");
        QVERIFY(summary.testAccuracy >= 0.85);
        // The budget (600 steps, d_model 64) is sized to run in well under a minute on 2 cores: 2.5 s measured
        // (docs/BENCHMARKS.md). Time is a benchmark figure, not an assertion: a loaded machine must not fail
        // a correct build.
        QCOMPARE(observer.started, 1);
        QCOMPARE(observer.finished, 1);
        QCOMPARE(observer.progress, 600);
        QCOMPARE(observer.snapshots, 12); // one per dev evaluation
        // The dev accuracy reported at the best step is the summary's.
        bool found = false;
        for (const auto& m : observer.metrics)
            if (m.split == "dev" && m.name == "accuracy" && m.step == summary.bestStep)
                found = std::abs(m.value - summary.bestDevAccuracy) < 1e-12;
        QVERIFY(found);
    }

    void positionInformationMattersOnOrderDependentData()
    {
        SyntheticSentiment::Options o;
        o.orderDependent = true;
        const auto data = SyntheticSentiment::generate(o);
        RecordingObserver a, b;
        const auto withRpr = train(quickConfig("ssan", "rpr"), data, a);
        const auto without = train(quickConfig("ssan", "none"), data, b);
        qInfo("order-dependent data: SSAN+RPR dev %.3f, SSAN without position dev %.3f", withRpr.bestDevAccuracy,
              without.bestDevAccuracy);
        QVERIFY(withRpr.bestDevAccuracy >= 0.85);
        QVERIFY2(withRpr.bestDevAccuracy - without.bestDevAccuracy >= 0.15,
                 "SSAN without position information should do measurably worse");
    }

    void lstmBaselineLearns()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        const auto summary = train(quickConfig("lstm", "none", 400), data, observer);
        QCOMPARE(QString::fromStdString(toString(summary.status)), QString("completed"));
        QVERIFY(summary.bestDevAccuracy >= 0.85);
        QCOMPARE(observer.snapshots, 0); // no attention in an LSTM
    }

    // Pooling weights reach the observer with the self-attention maps: ESSAN's AttnSeqRep, and a BiLSTM's
    // attention pooling, which has no self-attention map at all; both survive the store's JSON.
    void poolingWeightsComeWithTheSnapshot()
    {
        const auto data = SyntheticSentiment::generate({});
        for (const char* model : {"essan", "rnn-attention"}) {
            RecordingObserver observer;
            auto config = quickConfig(model, std::string(model) == "essan" ? "rpr" : "none", 20);
            config.model.heads = 2;
            config.evalEvery = 10;
            train(config, data, observer);
            QCOMPARE(observer.snapshots, 2);
            const AttentionSnapshot& s = observer.lastSnapshot;
            QCOMPARE(s.step, 20);
            QCOMPARE(s.pooling.size(), s.tokens.size());
            double sum = 0;
            for (float w : s.pooling)
                sum += w;
            QVERIFY2(std::abs(sum - 1.0) < 1e-5, model);
            if (std::string(model) == "essan") {
                QCOMPARE(s.poolingName, std::string("AttnSeqRep"));
                QCOMPARE(s.maps.size(), std::size_t(2)); // 1 layer x 2 heads
            } else {
                QCOMPARE(s.poolingName, std::string("attention pooling"));
                QVERIFY(s.maps.empty());
            }
            const auto back = AttentionSnapshot::fromJson(s.toJson());
            QCOMPARE(back.pooling, s.pooling);
            QCOMPARE(back.poolingName, s.poolingName);
        }
    }

    void sameSeedSameNumbers()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver a, b;
        auto c = quickConfig("ssan", "rpr", 60);
        c.evalEvery = 20;
        // The promise is made for a fixed thread count: deterministic keeps it (without it a run may move to one
        // thread when other processes take the cores, and sums split otherwise differ in their last bits).
        c.deterministic = true;
        train(c, data, a);
        train(c, data, b);
        QCOMPARE(a.metrics.size(), b.metrics.size());
        for (std::size_t i = 0; i < a.metrics.size(); ++i)
            if (a.metrics[i].name != "wall_seconds") // the one metric that is a clock, not a computation
                QCOMPARE(a.metrics[i].value, b.metrics[i].value);
    }

    // The analyst's x axes: at every logged step, the epochs seen (step x batch / examples, batches
    // rounded up) and a wall clock that never goes back.
    void epochAndWallTimeAreLogged()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        auto c = quickConfig("bow", "none", 40);
        c.logEvery = 10;
        train(c, data, observer);
        const double perEpoch = std::ceil(double(data.train.size()) / c.batchSize);
        std::vector<std::pair<int, double>> epochs, walls;
        for (const auto& m : observer.metrics) {
            if (m.split == "train" && m.name == "epoch") epochs.push_back({m.step, m.value});
            if (m.split == "train" && m.name == "wall_seconds") walls.push_back({m.step, m.value});
        }
        QCOMPARE(epochs.size(), std::size_t(4));
        QCOMPARE(walls.size(), std::size_t(4));
        for (const auto& [step, epoch] : epochs)
            QCOMPARE(epoch, step / perEpoch);
        for (std::size_t i = 1; i < walls.size(); ++i)
            QVERIFY(walls[i].second >= walls[i - 1].second);
        QVERIFY(walls.front().second > 0.0);
    }

    void cancelledBeforeStartStopsAtOnce()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        CancelToken cancel;
        cancel.cancel();
        const auto summary = Trainer(quickConfig("ssan", "rpr")).run(data, observer, cancel);
        QCOMPARE(QString::fromStdString(toString(summary.status)), QString("cancelled"));
        QCOMPARE(summary.steps, 0);
        QCOMPARE(observer.finished, 1);
    }

    void impossibleConfigurationFailsWithTheSettingNamed()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        auto c = quickConfig("ssan", "rpr");
        c.model.rprClip = 0;
        const auto summary = train(c, data, observer);
        QCOMPARE(QString::fromStdString(toString(summary.status)), QString("failed"));
        QVERIFY(QString::fromStdString(summary.message).startsWith("rpr_clip"));
        QCOMPARE(observer.started, 1); // recorded so the user sees why
        QCOMPARE(observer.finished, 1);
    }

    // Budget in epochs: steps = epochs x ceil(train / batch); 6000 synthetic sentences in batches of 32.
    void epochBudgetCountsBatchesPerEpoch()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        auto c = quickConfig("bow", "none", 5);
        c.epochs = 2;
        c.batchSize = 32;
        c.sampling = "epochs";
        c.evalEvery = 1000;
        const auto summary = train(c, data, observer);
        QCOMPARE(summary.steps, 2 * 188);
        QCOMPARE(observer.progress, 2 * 188);
    }

    // The best-dev weights of a completed run are saved whole, named with their sha256, and loading them
    // into a fresh model gives the test accuracy the run reported.
    void checkpointHoldsTheBestDevWeights()
    {
        const auto data = SyntheticSentiment::generate({});
        QTemporaryDir dir;
        RecordingObserver observer;
        auto c = quickConfig("ssan", "rpr", 120);
        c.threads = 1; // a seed gives the same numbers at a fixed thread count (the automatic count may change mid-run)
        c.model.dModel = 32;
        c.evalEvery = 40;
        c.checkpointDir = dir.filePath("checkpoints").toStdString();
        const auto summary = train(c, data, observer);
        QCOMPARE(QString::fromStdString(toString(summary.status)), QString("completed"));
        QCOMPARE(observer.checkpoints.size(), std::size_t(1));
        const CheckpointRef& ref = observer.checkpoints.front();
        QCOMPARE(ref.step, summary.bestStep);
        QVERIFY(QFileInfo(QString::fromStdString(ref.path)).isAbsolute());
        QVERIFY(QFile::exists(QString::fromStdString(ref.path)));
        QCOMPARE(QDir(dir.filePath("checkpoints")).entryList(QDir::Files).size(), 1); // no partial file left
        QCOMPARE(ref.sha256, Sha256::ofFile(ref.path));

        const Vocabulary vocabulary = Vocabulary::fromExamples(data.train);
        ModelConfig m = c.model;
        m.vocabularySize = static_cast<int>(vocabulary.size());
        m.numClasses = data.numClasses();
        torch::manual_seed(99); // different initial weights: only the file can make them right
        auto model = ModelFactory::create(m);
        torch::serialize::InputArchive archive;
        archive.load_from(ref.path);
        model->load(archive);
        ClassificationTask task(model, data, vocabulary, torch::kCPU, "random", 32);
        QCOMPARE(task.evaluate(true).score, summary.testAccuracy);

        // An unwritable folder: the run's results stand, the message says why there is no file.
        QFile blocker(dir.filePath("not-a-folder"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        RecordingObserver second;
        c.checkpointDir = dir.filePath("not-a-folder/sub").toStdString();
        const auto again = train(c, data, second);
        QCOMPARE(QString::fromStdString(toString(again.status)), QString("completed"));
        QVERIFY(second.checkpoints.empty());
        QVERIFY2(QString::fromStdString(again.message).startsWith("checkpoint not saved"), again.message.c_str());
        QCOMPARE(again.testAccuracy, summary.testAccuracy); // same seed, same numbers
    }

    // Every evaluation records the probe sentence, then one short dev example per class (or the user's
    // probes, tokenised as the dataset is), each with its label and prediction.
    void probeInputsAtEveryEvaluation()
    {
        auto c = quickConfig("ssan", "rpr", 20);
        c.evalEvery = 10; // two evaluations
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        train(c, data, observer);
        const std::size_t perEvaluation = 1 + std::min<std::size_t>(data.classNames.size(), 5);
        QCOMPARE(observer.probes.size(), 2 * perEvaluation);
        QCOMPARE(observer.probes[0].tokens, data.probeTokens);
        QCOMPARE(observer.probes[0].probeLabel, std::string("probe sentence"));
        for (std::size_t p = 1; p < perEvaluation; ++p) {
            const AttentionSnapshot& s = observer.probes[p];
            QCOMPARE(s.probe, static_cast<int>(p));
            QCOMPARE(s.probeLabel, "dev example, gold " + data.classNames[p - 1]);
            QVERIFY(s.tokens.size() >= 4 && s.tokens.size() <= 20);
            QCOMPARE(s.probabilities.size(), data.classNames.size());
            QCOMPARE(s.step, 10);
        }
        RecordingObserver own;
        c.probes = {"Not bad at all", "  "};
        train(c, data, own);
        QCOMPARE(own.probes.size(), std::size_t(2 * 2)); // the probe sentence and one of the user's (a blank one has no tokens)
        QCOMPARE(own.probes[1].tokens, (std::vector<std::string>{"Not", "bad", "at", "all"}));
        QCOMPARE(own.probes[1].probeLabel, std::string("your probe 1"));
        QVERIFY(TrainConfig::fromJson(c.toJson()).probes == c.probes);
        QVERIFY(TrainConfig::fromJson(quickConfig("ssan", "rpr").toJson()).probes.empty());
        QVERIFY(quickConfig("ssan", "rpr").toJson().find("probes") == std::string::npos); // absent unless given
    }

    // Patience counts dev evaluations without improvement; the run still reports test at its best step.
    void earlyStoppingEndsTheRunWithTestAtBestDev()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        auto c = quickConfig("bow", "none", 400);
        c.learningRate = 1e-12; // dev accuracy cannot move: no evaluation improves on the first
        c.evalEvery = 10;
        c.patience = 2;
        const auto summary = train(c, data, observer);
        QCOMPARE(QString::fromStdString(toString(summary.status)), QString("completed"));
        QVERIFY(summary.stoppedEarly);
        QCOMPARE(summary.steps, 30);
        QCOMPARE(summary.bestStep, 10);
        QVERIFY(QString::fromStdString(summary.message).startsWith("stopped early at step 30"));
        QVERIFY(summary.testAccuracy > 0.0);
        QCOMPARE(summary.testConfusion.size(), std::size_t(5));
        std::int64_t total = 0;
        for (const auto& row : summary.testConfusion)
            for (auto v : row)
                total += v;
        QCOMPARE(total, std::int64_t(data.test.size()));
    }

    // Test metrics at best dev: accuracy, macro-F1 and the confusion matrix agree with each other.
    void testMetricsComeWithTheSummary()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver observer;
        const auto summary = train(quickConfig("ssan", "rpr", 200), data, observer);
        std::int64_t correct = 0, total = 0;
        for (std::size_t t = 0; t < summary.testConfusion.size(); ++t)
            for (std::size_t p = 0; p < summary.testConfusion[t].size(); ++p) {
                total += summary.testConfusion[t][p];
                correct += t == p ? summary.testConfusion[t][p] : 0;
            }
        QCOMPARE(static_cast<double>(correct) / total, summary.testAccuracy);
        QVERIFY(summary.testMacroF1 > 0.0 && summary.testMacroF1 <= 1.0);
        bool devF1 = false;
        for (const auto& m : observer.metrics)
            devF1 = devF1 || (m.split == "dev" && m.name == "macro_f1");
        QVERIFY(devF1);
    }

    // Failure is a result: a loss that explodes ends the run as diverged, naming the step; a model that
    // cannot fit in memory ends it as failed, naming the configuration and device; training goes on after.
    void divergenceAndOutOfMemoryAreResults()
    {
        const auto data = SyntheticSentiment::generate({});
        RecordingObserver diverging;
        auto c = quickConfig("ssan", "none", 100);
        c.optimizer = "sgd";
        c.learningRate = 1e12;
        const auto diverged = train(c, data, diverging);
        QCOMPARE(QString::fromStdString(toString(diverged.status)), QString("diverged"));
        QVERIFY2(QString::fromStdString(diverged.message).contains(QRegularExpression("^loss became (NaN|infinite) at step \\d+$")),
                 diverged.message.c_str());
        QVERIFY(diverged.steps < 100);
        QCOMPARE(diverging.finished, 1);

        RecordingObserver huge;
        auto big = quickConfig("ssan", "none", 10);
        big.model.embeddingDim = 4;
        big.model.dModel = 8000000; // a d x d layer of 256 TB: more than any address space
        const auto failed = train(big, data, huge);
        QCOMPARE(QString::fromStdString(toString(failed.status)), QString("failed"));
        QVERIFY2(QString::fromStdString(failed.message).startsWith("out of memory on cpu"), failed.message.c_str());
        QVERIFY(QString::fromStdString(failed.message).contains("d_model 8000000"));
        QCOMPARE(huge.finished, 1);

        RecordingObserver after;
        QCOMPARE(QString::fromStdString(toString(train(quickConfig("bow", "none", 20), data, after).status)), QString("completed"));
    }

    // switch: the capturable step (CapturableAdam, batches padded to multiples of 8 tokens) gives
    // every Table 5.4 model the losses of today's step within 1e-5 relative over 25 steps (the padding is masked;
    // the sums run in other orders). Off, the step is today's code path, untouched.
    void capturableStepGivesTodaysLosses_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("position");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QString>("pooling");
        QTest::newRow("lstm") << "lstm" << "none" << 1 << "";
        QTest::newRow("bilstm") << "bilstm" << "none" << 1 << "";
        QTest::newRow("cnn") << "cnn" << "none" << 1 << "";
        QTest::newRow("ssan-rpr") << "ssan" << "rpr" << 1 << "";
        QTest::newRow("ssan-pe") << "ssan" << "sinusoidal" << 1 << "";
        QTest::newRow("ssan2-rpr") << "ssan" << "rpr" << 2 << "";
        QTest::newRow("transformer-rpr") << "transformer" << "rpr" << 1 << "";
        QTest::newRow("essan-mean") << "essan" << "rpr" << 1 << "mean";
        QTest::newRow("essan") << "essan" << "rpr" << 1 << "";
    }
    void capturableStepGivesTodaysLosses()
    {
        QFETCH(QString, model);
        QFETCH(QString, position);
        QFETCH(int, layers);
        QFETCH(QString, pooling);
        SyntheticSentiment::Options small; // the runs evaluate dev and test at their end: small splits keep it quick
        small.trainSize = 800;
        small.devSize = small.testSize = 100;
        const auto data = SyntheticSentiment::generate(small);
        auto config = quickConfig(model.toStdString(), position.toStdString(), 25);
        config.model.layers = layers;
        if (!pooling.isEmpty())
            config.model.pooling = pooling.toStdString();
        config.model.dropoutKeep = 1.0; // the padded batches draw other dropout masks
        config.logEvery = 1;
        config.evalEvery = 25;
        std::vector<std::string> capturableNotes;
        auto losses = [&](bool capturable) {
            auto c = config;
            c.capturableStep = capturable;
            RecordingObserver observer;
            train(c, data, observer);
            if (capturable)
                capturableNotes = observer.info.notes;
            std::vector<double> values;
            for (const auto& p : observer.metrics)
                if (p.split == "train" && p.name == "loss")
                    values.push_back(p.value);
            return values;
        };
        const auto today = losses(false), capturable = losses(true);
        QCOMPARE(today.size(), std::size_t(25));
        QCOMPARE(capturable.size(), today.size());
        double largest = 0.0;
        for (std::size_t i = 0; i < today.size(); ++i) {
            QVERIFY2(std::abs(capturable[i] - today[i]) <= 1e-5 * std::abs(today[i]),
                     qPrintable(QString("step %1: capturable %2, today %3").arg(i + 1).arg(capturable[i]).arg(today[i])));
            largest = std::max(largest, std::abs(capturable[i] - today[i]) / std::abs(today[i]));
        }
        // Measured 8e-8 to 2e-7 with OpenBLAS's Prescott kernels (2026-11-26); with its SkylakeX kernels two of the
        // nine models give bitwise today's losses (padded rows change no sum), so the switch is seen in the notes.
        QVERIFY(largest <= 1e-5);
        QVERIFY2(std::any_of(capturableNotes.begin(), capturableNotes.end(),
                             [](const std::string& n) { return n == "capturable_step: training steps not captured as CUDA graphs: not on a GPU"; }),
                 "the capturable run does not say what the switch did");
    }

    // The step a CUDA graph captures is the bucketed step in two halves (drawBatch on the host, stepOn on the
    // device): from the same random state, the same batch, loss and correct count as trainStep; capturable
    // only with buckets, and only for models that read nothing from the host (not a two-layer BiLSTM).
    void capturedStepIsTheBucketedStepInTwoHalves()
    {
        SyntheticSentiment::Options small;
        small.trainSize = 200;
        small.devSize = small.testSize = 20;
        const auto data = SyntheticSentiment::generate(small);
        const Vocabulary vocabulary = Vocabulary::fromExamples(data.train);
        for (const std::string name : {"ssan", "lstm"}) {
            ModelConfig m = quickConfig(name, name == "ssan" ? "rpr" : "none", 1).model;
            m.vocabularySize = static_cast<int>(vocabulary.size());
            m.numClasses = data.numClasses();
            m.dropoutKeep = 1.0;
            torch::manual_seed(3);
            auto model = ModelFactory::create(m);
            ClassificationTask task(model, data, vocabulary, torch::kCPU, "random", 16);
            QVERIFY(!task.capturable()); // no buckets yet
            task.padToMultipleOf(TrainConfig::kLengthBucket);
            QVERIFY(task.capturable()); // the LSTM too: RecurrentEncoder::forwardPadded on a GPU
            std::mt19937_64 first(11), second(11);
            for (int i = 0; i < 3; ++i) {
                const auto whole = task.trainStep(first, 16);
                const auto host = task.drawBatch(second);
                QCOMPARE(host.tensors.size(), std::size_t(3));
                QCOMPARE(host.tensors[0].size(1) % TrainConfig::kLengthBucket, std::int64_t(0));
                QCOMPARE(host.count, whole.count);
                const auto halves = task.stepOn(host.tensors);
                QCOMPARE(halves.loss.item<double>(), whole.loss.item<double>());
                QCOMPARE(halves.trainMetric.item<std::int64_t>(), whole.trainMetric.item<std::int64_t>());
            }
        }
        ModelConfig twoLayers = quickConfig("bilstm", "none", 1).model;
        twoLayers.layers = 2;
        twoLayers.vocabularySize = static_cast<int>(vocabulary.size());
        twoLayers.numClasses = data.numClasses();
        QVERIFY(!ModelFactory::create(twoLayers)->capturable());
    }
};

QTEST_APPLESS_MAIN(TestTraining)
#include "test_training.moc"
