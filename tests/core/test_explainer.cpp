// Exploring a trained model later: self-contained checkpoints (weights + vocabulary + classes), the
// explainer that loads them only when the store's sha256 matches, attention rollout by hand, and the
// store's snapshot timeline.
#include "core/analysis/AttentionRollout.h"
#include "core/analysis/KnownAnswerAttention.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/readers/SyntheticSentiment.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ModelCheckpoint.h"
#include "core/platform/CancelToken.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Trainer.h"
#include "tests/support/SmallRunConfig.h"

#include <nlohmann/json.hpp>

#include <torch/torch.h>

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>

using namespace attnlab;

namespace {

AttentionMap square(int layer, int head, std::vector<float> weights)
{
    AttentionMap m;
    m.layer = layer;
    m.head = head;
    m.size = static_cast<int>(std::lround(std::sqrt(static_cast<double>(weights.size()))));
    m.weights = std::move(weights);
    return m;
}

std::string joined(const std::vector<std::string>& tokens)
{
    std::string text;
    for (const auto& t : tokens)
        text += (text.empty() ? "" : " ") + t;
    return text;
}

// A 2-layer, 2-head ESSAN trained briefly on the synthetic sentences into a real store, its weights kept.
struct TrainedRun {
    std::int64_t runId = 0;
    RunSummary summary;
    std::vector<CheckpointRef> checkpoints;
};

TrainedRun trainInto(RunStore& store, const std::string& checkpointDir, const std::string& model = "essan",
                     const std::string& dataset = "synthetic-sentiment")
{
    TrainConfig c = attnlab::testing::smallRunConfig(model, dataset, 160, 5);
    c.evalEvery = 40;
    c.checkpointDir = checkpointDir;
    StoreObserver observer(store);
    CancelToken cancel;
    TrainedRun run;
    run.summary = Trainer(c).run(DatasetCatalog::loadAny(dataset, {}), observer, cancel);
    run.runId = observer.runId();
    return run;
}

} // namespace

class TestExplainer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Abnar & Zuidema's rollout worked out by hand on two tokens:
    // A1 = [[1,0],[.5,.5]] -> Â1 = .5 A1 + .5 I = [[1,0],[.25,.75]];
    // layer 2's heads [[1,0],[0,1]] and [[0,1],[1,0]] average to [[.5,.5],[.5,.5]] -> Â2 = [[.75,.25],[.25,.75]];
    // rollout = Â2 Â1 = [[.75+.0625, .1875],[.25+.1875, .5625]] = [[.8125,.1875],[.4375,.5625]].
    void rolloutByHand()
    {
        const auto r = AttentionRollout::of({square(0, 0, {1, 0, 0.5f, 0.5f}), square(1, 0, {1, 0, 0, 1}),
                                             square(1, 1, {0, 1, 1, 0})});
        QVERIFY(r.has_value());
        QCOMPARE(r->size, 2);
        const double expected[] = {0.8125, 0.1875, 0.4375, 0.5625};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::abs(r->weights[static_cast<std::size_t>(i)] - expected[i]) < 1e-6,
                     qPrintable(QString("cell %1: %2").arg(i).arg(r->weights[static_cast<std::size_t>(i)])));
        QVERIFY(!AttentionRollout::of({}).has_value());
        QVERIFY(!AttentionRollout::of({square(0, 0, {1, 0, 0, 1}), square(1, 0, {1})}).has_value()); // sizes differ
    }

    // The checkpoint answers as the trained model did: run through the explainer, every test sentence gets
    // the class whose count the run stored in its test confusion matrix (same weights, same arithmetic),
    // and the probe sentence's maps equal the snapshot stored at the best step.
    void explainerReproducesTheTrainedModel()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto run = trainInto(store, RunStore::checkpointFolderOf(store.path()));
        QCOMPARE(QString::fromStdString(toString(run.summary.status)), QString("completed"));
        const auto checkpoints = store.checkpoints(run.runId);
        QVERIFY(!checkpoints.empty());
        // The best-dev weights and, where the last step is another one, the final weights too.
        QCOMPARE(checkpoints.size(), std::size_t(run.summary.bestStep == run.summary.steps ? 1 : 2));
        const auto best = ModelExplainer::choose(checkpoints, run.summary.bestStep);
        QVERIFY(best.has_value());
        QCOMPARE(best->step, run.summary.bestStep);

        const ModelExplainer explainer(*best);
        QCOMPARE(explainer.weights(), std::string("best"));
        QCOMPARE(explainer.step(), run.summary.bestStep);
        const auto data = SyntheticSentiment::generate({});
        QCOMPARE(explainer.classNames(), data.classNames);

        std::vector<std::vector<std::int64_t>> confusion(data.classNames.size(),
                                                         std::vector<std::int64_t>(data.classNames.size(), 0));
        for (const auto& example : data.test) {
            const auto e = explainer.explain(joined(example.tokens));
            QCOMPARE(e.tokens, example.tokens);
            QCOMPARE(e.unknownCount(), 0);
            double sum = 0.0;
            for (double p : e.probabilities)
                sum += p;
            QVERIFY(std::abs(sum - 1.0) < 1e-9);
            ++confusion[static_cast<std::size_t>(example.label)][static_cast<std::size_t>(e.predicted)];
        }
        QCOMPARE(confusion, run.summary.testConfusion);
        // predict(): the same in batches, in the split's order.
        const auto batched = explainer.predict(data.test);
        QCOMPARE(batched.size(), data.test.size());
        std::size_t correct = 0;
        for (std::size_t i = 0; i < batched.size(); ++i) {
            QCOMPARE(batched[i].gold, data.test[i].label);
            QCOMPARE(batched[i].predicted, static_cast<int>(
                std::max_element(batched[i].probabilities.begin(), batched[i].probabilities.end()) - batched[i].probabilities.begin()));
            correct += batched[i].correct() ? 1 : 0;
        }
        QCOMPARE(static_cast<double>(correct) / static_cast<double>(batched.size()), run.summary.testAccuracy);

        const auto snapshot = store.attentionNearest(run.runId, run.summary.bestStep);
        QVERIFY(snapshot.has_value());
        QCOMPARE(snapshot->step, run.summary.bestStep);
        const auto probe = explainer.explain(joined(snapshot->tokens));
        QCOMPARE(probe.attention.maps.size(), std::size_t(2 * 2)); // layers x heads
        QCOMPARE(probe.attention.maps.size(), snapshot->maps.size());
        for (std::size_t m = 0; m < probe.attention.maps.size(); ++m) {
            const auto& mine = probe.attention.maps[m];
            QCOMPARE(mine.size, static_cast<int>(probe.tokens.size()));
            for (std::size_t i = 0; i < mine.weights.size(); ++i)
                QVERIFY(std::abs(mine.weights[i] - snapshot->maps[m].weights[i]) < 1e-5);
            for (int q = 0; q < mine.size; ++q) { // every row a distribution over the real tokens
                double row = 0.0;
                for (int k = 0; k < mine.size; ++k)
                    row += mine.at(q, k);
                QVERIFY2(std::abs(row - 1.0) < 1e-4, qPrintable(QString::number(row)));
            }
        }
        QCOMPARE(probe.attention.pooling.size(), probe.tokens.size()); // AttnSeqRep
        QVERIFY(probe.rollout.has_value());
        QCOMPARE(probe.rollout->size, static_cast<int>(probe.tokens.size()));
    }

    // What the user typed is shown as the model saw it: lowercased like its vocabulary, unknown words
    // marked, long inputs cut at max_length with the count said; an empty input is no prediction.
    void typedTextIsReadLikeTheTrainingData()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto run = trainInto(store, dir.filePath("weights").toStdString());
        const ModelExplainer explainer(*ModelExplainer::choose(store.checkpoints(run.runId), run.summary.bestStep));
        const auto e = explainer.explain("The Acting is NOT charming zyzzyva");
        QCOMPARE(e.tokens, (std::vector<std::string>{"the", "acting", "is", "not", "charming", "zyzzyva"}));
        QCOMPARE(e.unknown, (std::vector<bool>{false, false, false, false, false, true}));
        QCOMPARE(e.notes().size(), std::size_t(1));
        QVERIFY(e.notes().front().find("zyzzyva") != std::string::npos);

        std::string longText;
        for (int i = 0; i < 600; ++i)
            longText += "good ";
        const auto cut = explainer.explain(longText);
        QCOMPARE(cut.tokens.size(), std::size_t(512)); // ModelConfig::maxLength
        QCOMPARE(cut.truncatedTokens, 88);
        QVERIFY(cut.notes().front().find("88 dropped") != std::string::npos);

        const auto empty = explainer.explain("   ");
        QVERIFY(empty.tokens.empty() && empty.probabilities.empty());
        QCOMPARE(empty.predicted, -1);
    }

    // Only a file the store recorded, with the same sha256, is loaded; anything else is refused by name.
    void changedOrMissingFilesAreRefused()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto run = trainInto(store, dir.filePath("weights").toStdString());
        const CheckpointRef ref = *ModelExplainer::choose(store.checkpoints(run.runId), run.summary.bestStep);
        auto refusal = [](const CheckpointRef& r) {
            try {
                ModelExplainer explainer(r);
            } catch (const std::runtime_error& e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QFile file(QString::fromStdString(ref.path));
        QVERIFY(file.open(QIODevice::ReadWrite));
        const QByteArray whole = file.readAll();
        file.seek(file.size() / 2);
        const QByteArray original = file.read(1);
        file.seek(file.size() / 2);
        file.write(QByteArray(1, static_cast<char>(original[0] ^ 0x01))); // one bit
        file.close();
        QString why = refusal(ref);
        QVERIFY2(why.contains(QString::fromStdString(ref.path)) && why.contains("sha256") && why.contains("not loaded"),
                 qPrintable(why));
        // Cut short (a copy that stopped half-way, a full disk): refused by the hash too, before LibTorch
        // reads it; with its bytes back it loads again, so the hash is what refused it.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(whole.left(whole.size() / 2)), whole.size() / 2);
        file.close();
        why = refusal(ref);
        QVERIFY2(why.contains(QString::fromStdString(ref.path)) && why.contains("sha256") && why.contains("not loaded"),
                 qPrintable(why));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(whole), whole.size());
        file.close();
        QCOMPARE(refusal(ref), QString());
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(whole.left(100));
        file.close();
        // The run is still listed, with its results and the checkpoint it recorded: only its weights are refused.
        const auto listed = store.listRuns();
        QCOMPARE(listed.size(), std::size_t(1));
        QCOMPARE(listed[0].id, run.runId);
        QCOMPARE(QString::fromStdString(toString(listed[0].status)), QString("completed"));
        const auto recorded = store.checkpoints(run.runId);
        QVERIFY(std::any_of(recorded.begin(), recorded.end(), [&](const CheckpointRef& c) {
            return c.path == ref.path && c.sha256 == ref.sha256;
        }));
        QVERIFY(!store.metrics(run.runId).empty());

        CheckpointRef unrecorded = ref;
        unrecorded.sha256.clear();
        QVERIFY2(refusal(unrecorded).contains("no sha256"), qPrintable(refusal(unrecorded)));
        QVERIFY(QFile::remove(QString::fromStdString(ref.path)));
        why = refusal(ref);
        QVERIFY2(why.contains("gone"), qPrintable(why));
    }

    // A time-series model keeps its weights too, but typed text means nothing to it: said plainly.
    // A checkpoint of `cnn` from before it followed the thesis: its configuration says "cnn" and has no input
    // length, its weights are the max-over-time CNN's. It is rebuilt as that model and predicts as trained.
    void anEarlierCnnCheckpointLoadsAsTrained()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto run = trainInto(store, dir.filePath("weights").toStdString(), "cnn-max-over-time");
        const auto trainedRef = store.checkpoints(run.runId).front();
        const ModelExplainer trained(trainedRef);

        // Written as the earlier build wrote it: the same weights and task, the configuration without input_length.
        TrainConfig earlier = trained.config();
        auto model = ModelFactory::create(earlier.model);
        auto opened = ModelCheckpoint::open(trainedRef);
        ModelCheckpoint::loadInto(*model, opened, trainedRef, earlier.model.model);
        earlier.model.model = "cnn";
        earlier.model.inputLength = 0;
        earlier.checkpointDir = dir.filePath("earlier").toStdString();
        const auto task = nlohmann::json::parse(opened.metadataJson).at("task").dump();
        const auto earlierRef = ModelCheckpoint::save(*model, earlier, task, trainedRef.step, "best");
        QVERIFY(!QString::fromStdString(
                     nlohmann::json::parse(ModelCheckpoint::open(earlierRef).metadataJson).at("config").dump())
                     .contains("input_length"));

        const ModelExplainer loaded(earlierRef);
        QCOMPARE(QString::fromStdString(loaded.config().model.model), QString("cnn-max-over-time"));
        const auto a = trained.explain("a truly wonderful film").probabilities;
        const auto b = loaded.explain("a truly wonderful film").probabilities;
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY(std::abs(a[i] - b[i]) < 1e-6);
    }

    void timeSeriesCheckpointsAreNotTextModels()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto run = trainInto(store, dir.filePath("weights").toStdString(), "darnn", "synthetic-lag");
        const auto checkpoints = store.checkpoints(run.runId);
        QVERIFY(!checkpoints.empty());
        try {
            ModelExplainer explainer(checkpoints.front());
            QFAIL("a time-series checkpoint was taken for a text model");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("time-series"), e.what());
        }
    }

    // Each position technique drawn from the model that used it, checked against its formula or weights.
    void positionTechniquesMadeVisible()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        auto explainerFor = [&](const std::string& position, int heads) {
            TrainConfig c;
            c.model.model = "ssan";
            c.model.position = position;
            c.model.dModel = 16;
            c.model.heads = heads;
            c.steps = 20;
            c.evalEvery = 20;
            c.device = "cpu";
            c.checkpointDir = dir.filePath("weights").toStdString();
            StoreObserver observer(store);
            CancelToken cancel;
            const auto summary = Trainer(c).run(DatasetCatalog::loadAny(c.dataset, {}), observer, cancel);
            return std::make_unique<ModelExplainer>(*ModelExplainer::choose(store.checkpoints(observer.runId()), summary.bestStep));
        };
        const auto sinusoidal = explainerFor("sinusoidal", 1)->positionViews(32);
        QCOMPARE(sinusoidal.size(), std::size_t(1));
        QCOMPARE(sinusoidal[0].rows.size(), std::size_t(32));
        QCOMPARE(sinusoidal[0].columns.size(), std::size_t(16)); // d_model 16 < 64 shown
        QVERIFY(std::abs(sinusoidal[0].at(1, 0) - std::sin(1.0)) < 1e-6); // PE(1, 0) = sin(1 / 10000^0)
        QVERIFY(std::abs(sinusoidal[0].at(1, 1) - std::cos(1.0)) < 1e-6);
        QVERIFY(std::abs(sinusoidal[0].at(3, 2) - std::sin(3.0 / std::pow(10000.0, 2.0 / 16))) < 1e-6);

        const auto alibi = explainerFor("alibi", 2)->positionViews(8);
        QCOMPARE(alibi.size(), std::size_t(2)); // one per head
        QVERIFY(std::abs(alibi[0].at(0, 3) - (-3.0 * std::pow(2.0, -4.0))) < 1e-6); // m_1 = 2^(-8/2)
        QVERIFY(std::abs(alibi[1].at(5, 1) - (-4.0 * std::pow(2.0, -8.0))) < 1e-6);  // m_2 = 2^(-8*2/2)

        const auto rope = explainerFor("rope", 2)->positionViews(16);
        QCOMPARE(rope.size(), std::size_t(1));
        QVERIFY(rope[0].curve);
        QVERIFY(std::abs(rope[0].values[0] - 1.0f) < 1e-5); // a unit vector against itself
        for (float v : rope[0].values)
            QVERIFY(v <= 1.0f + 1e-5f);
        QVERIFY(rope[0].values[1] < rope[0].values[0]); // one step apart scores lower than none

        // RPR: the key and value tables are the checkpoint's own weights, 2k+1 distances from -k.
        TrainConfig c;
        c.model.model = "ssan";
        c.model.position = "rpr";
        c.model.dModel = 16;
        c.model.rprClip = 3;
        c.steps = 20;
        c.evalEvery = 20;
        c.device = "cpu";
        c.checkpointDir = dir.filePath("weights").toStdString();
        StoreObserver observer(store);
        CancelToken cancel;
        const auto summary = Trainer(c).run(DatasetCatalog::loadAny(c.dataset, {}), observer, cancel);
        const auto ref = *ModelExplainer::choose(store.checkpoints(observer.runId()), summary.bestStep);
        const auto rpr = ModelExplainer(ref).positionViews();
        QCOMPARE(rpr.size(), std::size_t(2)); // keys and values of the one layer
        QCOMPARE(rpr[0].rows, (std::vector<std::string>{"-3", "-2", "-1", "0", "+1", "+2", "+3"}));
        torch::serialize::InputArchive archive;
        archive.load_from(ref.path);
        torch::serialize::InputArchive layer; // a submodule's tensors are in a nested archive
        archive.read("attention0", layer);
        torch::Tensor keys;
        layer.read("rel_keys", keys);
        QCOMPARE(keys.size(0), 7);
        const bool keysFirst = rpr[0].name.find("key") != std::string::npos;
        const PositionView& keyView = keysFirst ? rpr[0] : rpr[1];
        for (int r = 0; r < 7; ++r)
            for (int d = 0; d < keys.size(1); ++d)
                QCOMPARE(keyView.at(r, d), keys[r][d].item<float>());
        QVERIFY(explainerFor("none", 1)->positionViews().empty());
    }

    // synthetic-lag's known answer: input attention on the true driver averaged over the steps, temporal
    // attention at t-L, each next to uniform; by hand on 2 steps x 2 drivers, then on a real DA-RNN run.
    void knownAnswerAttentionByHand()
    {
        AttentionSnapshot s;
        s.tokens = {"t-1", "t-0"};
        s.features = {"x0", "x1"};
        s.inputAttention = {0.8f, 0.2f, 0.6f, 0.4f}; // step t-1: 0.8 on x0; step t-0: 0.6 on x0
        s.pooling = {0.7f, 0.3f};
        s.trueDriver = 0;
        s.trueLag = 1;
        const auto k = KnownAnswerAttention::of(s);
        QVERIFY(k.has_value());
        QCOMPARE(k->driver, std::string("x0"));
        QVERIFY(std::abs(k->driverShare - 0.7) < 1e-6);
        QCOMPARE(k->driverUniform, 0.5);
        QVERIFY(std::abs(k->lagShare - 0.7) < 1e-6); // the weight at t-1
        QCOMPARE(k->lagUniform, 0.5);
        s.trueDriver = s.trueLag = -1;
        QVERIFY(!KnownAnswerAttention::of(s).has_value());

        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        const auto run = trainInto(store, dir.filePath("weights").toStdString(), "darnn", "synthetic-lag");
        const auto stored = store.attentionNearest(run.runId, run.summary.bestStep);
        QVERIFY(stored.has_value());
        QCOMPARE(stored->trueLag, 3); // SyntheticLag's defaults: driver 0, lag 3
        QCOMPARE(stored->trueDriver, 0);
        const auto real = KnownAnswerAttention::of(*stored);
        QVERIFY(real && real->driverShare >= 0.0 && real->lagShare >= 0.0);
    }

    // The timeline reads steps first and one snapshot at a time; the nearest step wins, the earlier on a tie.
    void snapshotTimeline()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        RunInfo info;
        const auto id = store.beginRun(info);
        for (int step : {10, 30, 50})
            for (int probe : {0, 1}) { // two probe inputs per evaluation, probe 0 first
                AttentionSnapshot s;
                s.step = step;
                s.probe = probe;
                s.probeLabel = probe ? "dev example" : "probe sentence";
                s.tokens = probe ? std::vector<std::string>{"c", "d", "e"} : std::vector<std::string>{"a", "b"};
                s.pooling = std::vector<float>(s.tokens.size(), 1.0f / static_cast<float>(s.tokens.size()));
                store.appendAttention(id, s);
            }
        QCOMPARE(store.attentionSteps(id), (std::vector<int>{10, 30, 50}));
        QCOMPARE(store.attentionNearest(id, 0)->step, 10);
        QCOMPARE(store.attentionNearest(id, 36)->step, 30);
        QCOMPARE(store.attentionNearest(id, 40)->step, 30); // a tie: the earlier
        QCOMPARE(store.attentionNearest(id, 41)->step, 50);
        QCOMPARE(store.attentionNearest(id, 900)->step, 50);
        QCOMPARE(store.attentionNearest(id, 36)->probe, 0);
        const auto second = store.attentionNearest(id, 36, 1);
        QCOMPARE(second->step, 30);
        QCOMPARE(second->probe, 1);
        QCOMPARE(second->tokens.size(), std::size_t(3));
        QVERIFY(!store.attentionNearest(id, 36, 2).has_value()); // no third probe
        QCOMPARE(store.latestAttention(id)->probe, 0);           // the training view's probe sentence
        QCOMPARE(store.latestAttention(id)->step, 50);
        const auto probes = store.attentionProbes(id);
        QCOMPARE(probes.size(), std::size_t(2));
        QCOMPARE(probes[1].probeLabel, std::string("dev example"));
        QVERIFY(!store.attentionNearest(id + 1, 10).has_value());
        QVERIFY(store.attentionSteps(id + 1).empty());
        // choose(): the best step, a kept step, or nothing for a step whose weights were not kept.
        const std::vector<CheckpointRef> kept{{40, "best.pt", "x"}, {160, "final.pt", "y"}};
        QCOMPARE(ModelExplainer::choose(kept, 40)->path, std::string("best.pt"));
        QCOMPARE(ModelExplainer::choose(kept, 40, 160)->path, std::string("final.pt"));
        QVERIFY(!ModelExplainer::choose(kept, 40, 80).has_value());
        QCOMPARE(ModelExplainer::choose(kept, 120)->path, std::string("final.pt")); // best step not kept: the last
        QVERIFY(!ModelExplainer::choose({}, 40).has_value());
    }
};

QTEST_GUILESS_MAIN(TestExplainer)
#include "test_explainer.moc"
