// A translation model's attention step by step (Translator::stepByStep): for every head and row of the encoder's
// self-attention, the decoder's causal self-attention and the cross-attention, the steps' softmax gives back the
// weights the model itself used in that translation (the maps Translator::force returns) to 1e-6, and the steps hold
// together: score = (q . k + position) / sqrt(d_k), the mask hides exactly the padded and later keys, the output is
// the weighted sum of the values. Trained runs of every kind of Transformer side the lab has.
#include "core/data/DatasetCatalog.h"
#include "core/data/install/Sha256.h"
#include "core/platform/CancelToken.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Trainer.h"
#include "core/training/Translator.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <memory>
#include <string>

using namespace attnlab;

namespace {

const std::string kSource = "ant bee cat dog eel";
const std::string kTarget = "eel dog cat bee ant";

// The map of (layer, head) among a translation's maps.
const AttentionMap& mapOf(const std::vector<AttentionMap>& maps, int layer, int head)
{
    for (const auto& m : maps)
        if (m.layer == layer && m.head == head)
            return m;
    throw std::runtime_error("no map for layer " + std::to_string(layer) + " head " + std::to_string(head));
}

} // namespace

class TranslationStepsTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::unique_ptr<RunStore> store_;

    // A short run of `model` on the reversal task (2 + 2 layers, 2 heads), its best checkpoint.
    CheckpointRef trained(const std::string& model, const std::string& position, const std::string& layerNorm)
    {
        TrainConfig c;
        c.dataset = "synthetic-reverse";
        c.model.model = model;
        c.model.position = position;
        c.model.layerNorm = layerNorm;
        c.model.dModel = c.model.embeddingDim = 16;
        c.model.heads = 2;
        c.model.layers = 2;
        c.steps = 60;
        c.evalEvery = 60;
        c.seed = 5;
        c.device = "cpu";
        c.threads = 1;
        c.checkpointDir = dir_.filePath("checkpoints").toStdString();
        StoreObserver observer(*store_);
        CancelToken cancel;
        const auto summary = Trainer(c).run(DatasetCatalog::loadAny(c.dataset, {}), observer, cancel);
        const auto chosen = ModelExplainer::choose(store_->checkpoints(observer.runId()), summary.bestStep);
        if (!chosen)
            throw std::runtime_error(model + ": no checkpoint");
        return *chosen;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        store_ = std::make_unique<RunStore>(dir_.filePath("runs.db").toStdString());
    }

    void everyHeadStepByStepGivesBackTheModelsWeights()
    {
        const auto fixture = std::string(ATTNLAB_SOURCE_DIR) + "/tests/core/fixtures/checkpoints/transformer-seq2seq-before-shared-layers.pt";
        struct Case {
            std::string name;
            CheckpointRef checkpoint;
            std::vector<std::string> parts; // what the model has
        };
        const std::vector<Case> cases = {
            {"transformer-seq2seq rpr (800 steps)", {800, fixture, Sha256::ofFile(fixture)}, {"encoder", "decoder", "cross"}},
            {"transformer-seq2seq alibi post-LN", trained("transformer-seq2seq", "alibi", "post"), {"encoder", "decoder", "cross"}},
            {"transformer-seq2seq rope", trained("transformer-seq2seq", "rope", "pre"), {"encoder", "decoder", "cross"}},
            {"birnn-transformer", trained("birnn-transformer", "rpr", ""), {"decoder", "cross"}},
            {"transformer-luong", trained("transformer-luong", "sinusoidal", ""), {"encoder"}},
        };
        int compared = 0;
        for (const auto& c : cases) {
            const Translator translator(c.checkpoint);
            const auto forced = translator.force(kSource, kTarget);
            const int heads = translator.config().model.heads, layers = translator.config().model.layers;
            for (const std::string part : {"encoder", "decoder", "cross"}) {
                const bool has = std::find(c.parts.begin(), c.parts.end(), part) != c.parts.end();
                if (!has) {
                    try {
                        translator.stepByStep(kSource, kTarget, part, 0, 0, 0);
                        QFAIL(qPrintable(QString::fromStdString(c.name + " took " + part + " step by step: it has none")));
                    } catch (const std::invalid_argument& e) {
                        QVERIFY2(std::string(e.what()).rfind("part: a ", 0) == 0, e.what());
                    }
                    continue;
                }
                const auto& maps = part == "encoder" ? forced.encoderSelf : part == "decoder" ? forced.decoderSelf : forced.cross;
                const int rows = part == "encoder" ? 5 : 6; // the source's tokens; the translation's words and <eos>
                for (int layer = 0; layer < layers; ++layer)
                    for (int head = 0; head < heads; ++head)
                        for (int query = 0; query < rows; ++query) {
                            const auto s = translator.stepByStep(kSource, kTarget, part, layer, head, query);
                            const auto where = c.name + " " + part + " layer " + std::to_string(layer + 1) + " head " + std::to_string(head + 1) +
                                               " row " + std::to_string(query);
                            const auto& map = mapOf(maps, layer, head);
                            QCOMPARE(static_cast<int>(s.weights.size()), map.width());
                            QCOMPARE(s.part, part);
                            QCOMPARE(s.tokens.size(), std::size_t(part == "decoder" ? 6 : 5));
                            QCOMPARE(s.queryTokens.size(), std::size_t(part == "cross" ? 6 : 0));
                            double sum = 0.0;
                            for (int j = 0; j < map.width(); ++j) {
                                const auto at = static_cast<std::size_t>(j);
                                QVERIFY2(std::abs(s.weights[at] - map.at(query, j)) < 1e-6, qPrintable(QString::fromStdString(where)));
                                QVERIFY2(std::abs(s.weights[at] - s.modelWeights[at]) < 1e-6, qPrintable(QString::fromStdString(where)));
                                // Only the decoder hides keys here (no padding in one sentence): those after the row.
                                QCOMPARE(static_cast<bool>(s.masked[at]), part == "decoder" && j > query);
                                if (!s.masked[at] && s.position != "alibi") // ALiBi's term comes after the division
                                    QVERIFY2(std::abs(s.scores[at] - (s.dot[at] + s.positionTerm[at]) / s.divisor) < 1e-4,
                                             qPrintable(QString::fromStdString(where + " score")));
                                sum += s.weights[at];
                            }
                            QVERIFY(std::abs(sum - 1.0) < 1e-5);
                            for (std::size_t d = 0; d < s.output.size() && s.position != "rpr"; ++d) { // RPR adds a^V too
                                double z = 0.0;
                                for (std::size_t j = 0; j < s.values.size(); ++j)
                                    z += s.weights[j] * s.values[j][d];
                                QVERIFY2(std::abs(z - s.output[d]) < 1e-4, qPrintable(QString::fromStdString(where + " output")));
                            }
                            ++compared;
                        }
            }
            // Rows named as the window names them; the model's own translation when none is typed.
            const auto cross = translator.stepByStep(kSource, "", "", layers - 1, 0, 0);
            QCOMPARE(cross.part, std::string(c.parts.back() == "cross" ? "cross" : c.parts.front()));
            const auto own = translator.translate(kSource);
            if (cross.part == "cross") {
                auto rows = own.targetTokens;
                rows.push_back("<eos>");
                QVERIFY(cross.queryTokens == rows);
            }
        }
        qInfo("%d rows of heads compared with the model's own weights", compared);
        QCOMPARE(compared, 3 * (2 * 2 * (5 + 6 + 6)) + 2 * 2 * (6 + 6) + 2 * 2 * 5); // every row of every head: 272
    }

    void badChoicesAreNamed()
    {
        const auto fixture = std::string(ATTNLAB_SOURCE_DIR) + "/tests/core/fixtures/checkpoints/transformer-seq2seq-before-shared-layers.pt";
        const Translator translator({800, fixture, Sha256::ofFile(fixture)});
        auto refused = [&](const std::string& source, const std::string& part, int layer, int head, int query, const std::string& start) {
            try {
                translator.stepByStep(source, "", part, layer, head, query);
            } catch (const std::invalid_argument& e) {
                QVERIFY2(std::string(e.what()).rfind(start, 0) == 0, e.what());
                return;
            }
            QFAIL(qPrintable(QString::fromStdString("no error for " + start)));
        };
        refused(kSource, "attention", 0, 0, 0, "part: encoder, decoder or cross (got 'attention')");
        refused(kSource, "encoder", 2, 0, 0, "layer: the encoder has 2 self-attention layers (got 3)");
        refused(kSource, "cross", 5, 0, 0, "layer: the decoder has 2 cross-attention layers (got 6)");
        refused(kSource, "decoder", 0, 2, 0, "head: the layer has 2 heads (got 3)");
        refused(kSource, "encoder", 0, 0, 5, "query: row 5 is past the 5 source tokens");
        refused(" ", "encoder", 0, 0, 0, "text: it has no words");
    }
};

QTEST_GUILESS_MAIN(TranslationStepsTest)
#include "test_translation_steps.moc"
