// explanation methods held to what they claim: integrated gradients' completeness on every text
// model, gradient x input against central finite differences in double precision, occlusion and attention
// worked out by hand, and a trained model's decisive word found by occlusion.
#include "core/data/DatasetCatalog.h"
#include "core/data/readers/SyntheticSentiment.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/TokenAttributor.h"
#include "core/platform/CancelToken.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/FaithfulnessEvaluator.h"
#include "core/training/ModelExplainer.h"
#include "core/training/SeedAgreement.h"
#include "core/training/AttentionPermutationTest.h"
#include "core/training/Trainer.h"

#include <torch/torch.h>

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace attnlab;

namespace {

ModelConfig smallModel(const std::string& model)
{
    ModelConfig c;
    c.model = model;
    c.position = (model == "ssan" || model == "essan" || model == "transformer") ? "rpr" : "none";
    c.vocabularySize = 40;
    c.numClasses = 5;
    c.dModel = 16;
    c.layers = 2;
    c.heads = model == "ssan" ? 1 : 2;
    return c;
}

torch::Tensor sentence(std::vector<std::int64_t> ids)
{
    return torch::tensor(ids, torch::kLong).unsqueeze(0);
}

double softmaxAt(const std::vector<double>& logits, int c)
{
    double sum = 0;
    for (double l : logits)
        sum += std::exp(l);
    return std::exp(logits[static_cast<std::size_t>(c)]) / sum;
}

} // namespace

class TestAttribution : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Sum of integrated gradients = p(x) - p(baseline) (Sundararajan et al.'s completeness axiom), here within
    // 1% with 64 midpoint steps, on every text model with its random initial weights; the gap reported is the
    // one measured.
    void integratedGradientsAreComplete()
    {
        for (const char* name : {"ssan", "essan", "transformer", "lstm", "bilstm", "gru", "cnn", "ave", "bow"}) {
            torch::manual_seed(3);
            auto model = ModelFactory::create(smallModel(name));
            model->eval();
            const auto ids = sentence({5, 9, 13, 2, 27, 31, 8});
            TokenAttributor attributor(*model, ids, torch::ones_like(ids, torch::kBool), 1);
            for (const char* baseline : {"pad", "zero"}) {
                AttributionOptions o;
                o.igSteps = 64;
                o.igBaseline = baseline;
                const auto a = attributor.run("ig", o);
                QCOMPARE(a.scores.size(), std::size_t(7));
                double sum = 0;
                for (double s : a.scores)
                    sum += s;
                const double delta = a.probability - a.baselineProbability;
                QVERIFY2(std::abs(delta) > 1e-4, name); // a change to explain
                QVERIFY2(std::abs(sum - delta) <= 0.01 * std::abs(delta),
                         qPrintable(QString("%1 (%2): sum %3, p(x) - p(baseline) %4").arg(name, baseline).arg(sum).arg(delta)));
                QVERIFY(std::abs(a.completenessGap - std::abs(sum - delta)) < 1e-12);
            }
        }
    }

    // Gradient x input for token t is the derivative of p along e_t at position t: checked against
    // (p(e + h D_t) - p(e - h D_t)) / 2h with the model in double precision; the gradient norm against the
    // same derivative along each axis of a few dimensions.
    void gradientTimesInputMatchesFiniteDifferences()
    {
        for (const char* name : {"essan", "transformer", "lstm", "cnn"}) {
            torch::manual_seed(11);
            auto model = ModelFactory::create(smallModel(name));
            model->to(torch::kDouble);
            model->eval();
            const auto ids = sentence({4, 7, 19, 22, 3});
            const auto mask = torch::ones_like(ids, torch::kBool);
            TokenAttributor attributor(*model, ids, mask, 1);
            const auto a = attributor.run("gradxinput", {});
            torch::NoGradGuard noGrad;
            const auto e = model->embed(ids);
            const auto p = [&](const torch::Tensor& embedded) {
                return torch::softmax(model->forwardEmbedded(embedded, mask), 1)[0][a.targetClass].item<double>();
            };
            const double h = 1e-5;
            for (int t = 0; t < 5; ++t) {
                auto direction = torch::zeros_like(e);
                direction[0][t] = e[0][t];
                const double numeric = (p(e + h * direction) - p(e - h * direction)) / (2 * h);
                QVERIFY2(std::abs(numeric - a.scores[static_cast<std::size_t>(t)]) <= 1e-6 + 1e-4 * std::abs(numeric),
                         qPrintable(QString("%1 token %2: autograd %3, finite difference %4").arg(name).arg(t)
                                        .arg(a.scores[static_cast<std::size_t>(t)]).arg(numeric)));
            }
            const auto g = attributor.run("grad", {});
            auto unit = torch::zeros_like(e);
            unit[0][2][0] = 1.0;
            const double along = (p(e + h * unit) - p(e - h * unit)) / (2 * h);
            QVERIFY2(g.scores[2] + 1e-9 >= std::abs(along), name); // a norm bounds every component
        }
    }

    // Bag of words: logits = sum of the words' rows + bias, so occlusion by <unk> is computed here from the
    // weights alone; removal is the same sum without the row. And with one row per word and nothing else,
    // gradient x input at token t is sum_c dp_k/dW[id_t][c] * W[id_t][c], with dp_k/dl_c = p_k (δ_kc - p_c).
    void occlusionAndGradientOfBagOfWordsByHand()
    {
        torch::manual_seed(2);
        auto model = ModelFactory::create(smallModel("bow"));
        model->eval();
        const std::vector<std::int64_t> tokens{6, 11, 6, 30};
        const auto ids = sentence(tokens);
        TokenAttributor attributor(*model, ids, torch::ones_like(ids, torch::kBool), 1);
        const auto weights = model->named_parameters()["word_weights.weight"].detach().to(torch::kDouble);
        const auto bias = model->named_parameters()["bias"].detach().to(torch::kDouble);
        const auto row = [&](std::int64_t id, int c) { return weights[id][c].item<double>(); };
        const auto logitsWith = [&](std::vector<std::int64_t> words) {
            std::vector<double> l(5);
            for (int c = 0; c < 5; ++c) {
                l[static_cast<std::size_t>(c)] = bias[c].item<double>();
                for (auto w : words)
                    l[static_cast<std::size_t>(c)] += row(w, c);
            }
            return l;
        };
        const auto full = logitsWith(tokens);
        const int k = static_cast<int>(std::max_element(full.begin(), full.end()) - full.begin());
        const double pk = softmaxAt(full, k);
        const auto unk = attributor.run("occlusion", {});
        AttributionOptions remove;
        remove.occlusion = "remove";
        const auto removed = attributor.run("occlusion", remove);
        const auto gxi = attributor.run("gradxinput", {});
        QCOMPARE(unk.targetClass, k);
        for (std::size_t t = 0; t < tokens.size(); ++t) {
            auto withUnk = tokens;
            withUnk[t] = 1;
            auto without = tokens;
            without.erase(without.begin() + static_cast<std::ptrdiff_t>(t));
            QVERIFY(std::abs(unk.scores[t] - (pk - softmaxAt(logitsWith(withUnk), k))) < 1e-6);
            QVERIFY(std::abs(removed.scores[t] - (pk - softmaxAt(logitsWith(without), k))) < 1e-6);
            double expected = 0;
            for (int c = 0; c < 5; ++c)
                expected += pk * ((c == k ? 1.0 : 0.0) - softmaxAt(full, c)) * row(tokens[t], c);
            // d p_k / d W[id_t][c] = p_k (δ_kc - p_c); times the input W[id_t][c], summed over c.
            QVERIFY2(std::abs(gxi.scores[t] - expected) < 1e-6, qPrintable(QString::number(gxi.scores[t] - expected)));
        }
        // Tokens 0 and 2 are the same word: the same scores.
        QVERIFY(std::abs(unk.scores[0] - unk.scores[2]) < 1e-6 && std::abs(gxi.scores[0] - gxi.scores[2]) < 1e-6);
        // No self-attention: the attention methods say so instead of inventing scores.
        QVERIFY(!attributor.run("rollout", {}).available());
        QVERIFY(!attributor.run("attention", {}).available());
    }

    // A trained ESSAN on the synthetic grammar, where the clause after "but" decides the label: the word
    // whose occlusion costs the prediction most is in that clause, a filler word costs little; the
    // explainer's attention method is exactly the pooling weights explain() shows, and rollout is those
    // weights times the rollout matrix. Bad options are refused naming the setting.
    void trainedModelExplainedThroughTheExplainer()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        TrainConfig c;
        c.dataset = "synthetic-sentiment";
        c.model.model = "essan";
        c.model.position = "rpr";
        c.model.dModel = 64;
        c.model.heads = 2;
        c.model.layers = 1;
        c.steps = 600;
        c.evalEvery = 100;
        c.seed = 4;
        c.device = "cpu";
        c.checkpointDir = dir.filePath("checkpoints").toStdString();
        StoreObserver observer(store);
        CancelToken cancel;
        const auto summary = Trainer(c).run(DatasetCatalog::loadAny(c.dataset, {}), observer, cancel);
        QVERIFY2(summary.bestDevAccuracy > 0.9, qPrintable(QString::number(summary.bestDevAccuracy)));
        const auto chosen = ModelExplainer::choose(store.checkpoints(observer.runId()), summary.bestStep);
        QVERIFY(chosen.has_value());
        const ModelExplainer explainer(*chosen);

        const std::string text = "the plot is not good but the acting is really charming";
        const auto e = explainer.explain(text);
        QCOMPARE(e.classNames[static_cast<std::size_t>(e.predicted)], std::string("very positive"));
        const auto all = explainer.attribute(text);
        QCOMPARE(all.size(), AttributionOptions::methods().size());
        for (const auto& a : all) {
            QVERIFY2(a.available(), a.method.c_str());
            QCOMPARE(a.tokens, e.tokens);
            QCOMPARE(a.targetClass, e.predicted);
            QVERIFY(std::abs(a.probability - e.probabilities[static_cast<std::size_t>(e.predicted)]) < 1e-5);
        }
        const auto byName = [&](const std::string& m) {
            return *std::find_if(all.begin(), all.end(), [&](const auto& a) { return a.method == m; });
        };
        const auto attention = byName("attention");
        for (std::size_t t = 0; t < e.tokens.size(); ++t)
            QCOMPARE(attention.scores[t], static_cast<double>(e.attention.pooling[t]));
        const auto rollout = byName("rollout");
        for (int k = 0; k < e.rollout->size; ++k) {
            double expected = 0;
            for (int q = 0; q < e.rollout->size; ++q)
                expected += e.attention.pooling[static_cast<std::size_t>(q)] * e.rollout->at(q, k);
            QVERIFY(std::abs(rollout.scores[static_cast<std::size_t>(k)] - expected) < 1e-5);
        }
        const auto occlusion = byName("occlusion");
        const auto top = std::max_element(occlusion.scores.begin(), occlusion.scores.end()) - occlusion.scores.begin();
        const std::string decisive = e.tokens[static_cast<std::size_t>(top)];
        QVERIFY2(decisive == "really" || decisive == "charming" || decisive == "but",
                 qPrintable(QString::fromStdString("most decisive by occlusion: " + decisive)));
        QVERIFY(occlusion.scores[1] < occlusion.scores[static_cast<std::size_t>(top)] / 4); // "plot"
        QVERIFY(byName("ig").completenessGap < 0.01 * std::abs(byName("ig").probability - byName("ig").baselineProbability) + 1e-6);

        // Another class on request; bad methods and options refused with the setting named.
        AttributionOptions other;
        other.targetClass = 0;
        QCOMPARE(explainer.attribute(text, {"grad"}, other).front().targetClass, 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainer.attribute(text, {"lime"}));
        other.igSteps = 0;
        try {
            explainer.attribute(text, {"ig"}, other);
            QFAIL("0 steps accepted");
        } catch (const std::invalid_argument& error) {
            QVERIFY2(std::string(error.what()).find("ig_steps") != std::string::npos, error.what());
        }
        other.igSteps = 8;
        other.targetClass = 9;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainer.attribute(text, {"ig"}, other));
        QVERIFY(explainer.attribute("", {"ig"}).empty());

        // Faithfulness on three dev sentences, recomputed here from the methods' scores and the model's
        // probabilities of the deleted and restored sentences: orders, <unk> replacement, the 11 points, the
        // averages and AOPC.
        const auto dev = DatasetCatalog::load("synthetic-sentiment", {}).dev;
        const std::vector<TextExample> three(dev.begin(), dev.begin() + 3);
        FaithfulnessEvaluator::Options options;
        options.methods = {"occlusion", "attention"};
        CancelToken never;
        int calls = 0;
        int lastDone = 0;
        const auto report = FaithfulnessEvaluator(explainer).evaluate(three, "dev", options, never, [&](int done, int total) {
            QCOMPARE(total, 3);
            QVERIFY(done > lastDone && done <= 3); // after every batch of sentences
            lastDone = done;
            ++calls;
        });
        QCOMPARE(calls, 3); // one sentence a pass, the default
        QCOMPARE(lastDone, 3);
        {
            // Two sentences a pass (padded to the longer): two progress calls, the same curves within float
            // rounding of another batch size.
            FaithfulnessEvaluator::Options paired = options;
            paired.sentencesPerPass = 2;
            int pairedCalls = 0;
            const auto two = FaithfulnessEvaluator(explainer).evaluate(three, "dev", paired, never,
                                                                       [&](int, int) { ++pairedCalls; });
            QCOMPARE(pairedCalls, 2);
            QCOMPARE(two.examples, 3);
            for (std::size_t m = 0; m < report.methods.size(); ++m)
                for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
                    QVERIFY(std::abs(two.methods[m].deletion[std::size_t(i)] - report.methods[m].deletion[std::size_t(i)]) < 1e-6);
                    QVERIFY(std::abs(two.methods[m].insertion[std::size_t(i)] - report.methods[m].insertion[std::size_t(i)]) < 1e-6);
                }
        }
        QVERIFY(report.complete);
        QCOMPARE(report.examples, 3);
        QCOMPARE(report.methods.size(), std::size_t(3)); // occlusion, attention, random
        QCOMPARE(report.methods[2].method, std::string("random"));
        std::vector<double> deletion(FaithfulnessReport::kPoints, 0.0), insertion(FaithfulnessReport::kPoints, 0.0);
        double tau = 0;
        for (const auto& example : three) {
            const auto scored = explainer.attributeTokens(example.tokens, {"occlusion", "attention"});
            const auto& s = scored[0].scores;
            std::vector<int> order(s.size());
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return s[std::size_t(a)] > s[std::size_t(b)]; });
            const std::size_t n = s.size();
            for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
                const auto k = static_cast<std::size_t>(std::lround(i / 10.0 * static_cast<double>(n)));
                auto deleted = example.tokens;
                std::vector<std::string> given(n, "<unk>");
                for (std::size_t j = 0; j < k; ++j) {
                    deleted[std::size_t(order[j])] = "<unk>";
                    given[std::size_t(order[j])] = example.tokens[std::size_t(order[j])];
                }
                const auto p = explainer.probabilitiesOf({deleted, given});
                deletion[std::size_t(i)] += p[0][std::size_t(scored[0].targetClass)] / 3;
                insertion[std::size_t(i)] += p[1][std::size_t(scored[0].targetClass)] / 3;
            }
            tau += FaithfulnessEvaluator::kendallTau(s, scored[1].scores) / 3;
        }
        const auto* occlusionReport = report.find("occlusion");
        QVERIFY(occlusionReport && occlusionReport->sentences == 3);
        double aopc = 0;
        for (int i = 0; i < FaithfulnessReport::kPoints; ++i) {
            // 1e-6: the evaluator runs all of a sentence's curve points in one batch, this check two at a time,
            // and float kernels of other batch sizes round differently.
            QVERIFY2(std::abs(occlusionReport->deletion[std::size_t(i)] - deletion[std::size_t(i)]) < 1e-6,
                     qPrintable(QString::number(occlusionReport->deletion[std::size_t(i)] - deletion[std::size_t(i)])));
            QVERIFY(std::abs(occlusionReport->insertion[std::size_t(i)] - insertion[std::size_t(i)]) < 1e-6);
            aopc += (deletion[0] - deletion[std::size_t(i)]) / FaithfulnessReport::kPoints;
        }
        QVERIFY(std::abs(occlusionReport->deletionAopc - aopc) < 1e-6);
        QVERIFY(std::abs(occlusionReport->tauWithAttention - tau) < 1e-9);
        QVERIFY(std::isnan(report.find("attention")->tauWithAttention));
        // Every order starts from the whole sentence and ends at all <unk>: the same first and last points.
        QVERIFY(std::abs(report.methods[2].deletion.front() - deletion.front()) < 1e-6);
        QVERIFY(std::abs(report.methods[2].deletion.back() - deletion.back()) < 1e-6);
        const auto back = FaithfulnessReport::fromJson(report.toJson());
        QCOMPARE(back.methods.size(), report.methods.size());
        QCOMPARE(back.methods[0].deletion, report.methods[0].deletion);
        QVERIFY(std::isnan(back.methods[1].tauWithAttention));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, FaithfulnessReport::fromJson("{\"split\":1}"));

        // The known answer of the built-in grammar: the clause after the last "but" decides. Counted by hand
        // from the same scores: sentences with a contrast, the top token's place, the clause's length share.
        int contrast = 0, occlusionHits = 0;
        double share = 0;
        for (const auto& example : three) {
            const auto but = std::find(example.tokens.rbegin(), example.tokens.rend(), "but");
            if (but == example.tokens.rend())
                continue;
            const auto start = static_cast<std::size_t>(but.base() - example.tokens.begin());
            QCOMPARE(SyntheticSentiment::decidingClauseStart(example.tokens), start);
            ++contrast;
            share += static_cast<double>(example.tokens.size() - start) / static_cast<double>(example.tokens.size());
            const auto s = explainer.attributeTokens(example.tokens, {"occlusion"}).front().scores;
            if (static_cast<std::size_t>(FaithfulnessEvaluator::orderOf(s).front()) >= start)
                ++occlusionHits;
        }
        QCOMPARE(report.contrastSentences, contrast);
        QCOMPARE(occlusionReport->clauseHits, occlusionHits);
        if (contrast > 0)
            QVERIFY(std::abs(report.clauseChance - share / contrast) < 1e-12);
        QCOMPARE(back.contrastSentences, report.contrastSentences);
        QCOMPARE(back.methods[0].clauseHits, report.methods[0].clauseHits);
        QCOMPARE(SyntheticSentiment::decidingClauseStart({"it", "is", "good"}), std::size_t(0));
        QCOMPARE(SyntheticSentiment::decidingClauseStart({"a", "but", "b", "but", "c", "d"}), std::size_t(4));

        // One sentence's deletion curves at every k: the whole sentence first, then its tokens replaced by
        // <unk> one by one in the method's order, the last point all <unk>; AOPC the mean drop.
        const auto scores = explainer.attribute(text, {"ig", "attention", "rollout"});
        const auto curves = FaithfulnessEvaluator(explainer).deletionCurves(scores);
        QCOMPARE(curves.size(), std::size_t(3));
        for (std::size_t m = 0; m < curves.size(); ++m) {
            const auto& curve = curves[m];
            QCOMPARE(curve.method, scores[m].method);
            QCOMPARE(curve.order, FaithfulnessEvaluator::orderOf(scores[m].scores));
            QCOMPARE(curve.probabilities.size(), e.tokens.size() + 1);
            QVERIFY(std::abs(curve.probabilities.front() - scores[m].probability) < 1e-5);
            auto changed = e.tokens;
            double drop = 0;
            for (std::size_t k = 0; k <= e.tokens.size(); ++k) {
                if (k > 0)
                    changed[static_cast<std::size_t>(curve.order[k - 1])] = "<unk>";
                const double p = explainer.probabilitiesOf({changed})[0][static_cast<std::size_t>(e.predicted)];
                QVERIFY2(std::abs(curve.probabilities[k] - p) < 1e-6, qPrintable(QString::number(curve.probabilities[k] - p)));
                drop += (curve.probabilities.front() - curve.probabilities[k]) / static_cast<double>(e.tokens.size() + 1);
            }
            QVERIFY(std::abs(curve.aopc - drop) < 1e-12);
        }
        QVERIFY(FaithfulnessEvaluator(explainer).deletionCurves({}).empty());

        // Seed agreement of a run with itself: every distance across "seeds" is 0, attention's distance to
        // itself too, and each method's distance to attention is the one computed here from its scores.
        SeedAgreement::Options agreeing;
        agreeing.methods = {"occlusion"};
        const auto self = SeedAgreement::measure({&explainer, &explainer}, three, "dev", agreeing, never);
        QCOMPARE(self.examples, 3);
        QCOMPARE(self.methods.size(), std::size_t(2));
        QCOMPARE(self.methods[0].method, std::string("attention"));
        double toAttention = 0;
        for (const auto& example : three) {
            const auto scored = explainer.attributeTokens(example.tokens, {"attention", "occlusion"});
            toAttention += SeedAgreement::jensenShannonDistance(SeedAgreement::distributionOf(scored[0].scores),
                                                                SeedAgreement::distributionOf(scored[1].scores)) / 3;
        }
        for (const auto& m : self.methods) {
            QCOMPARE(m.sentences, 3);
            QVERIFY(m.acrossSeeds < 1e-7);
        }
        QVERIFY(self.methods[0].toAttention < 1e-7);
        QVERIFY(std::abs(self.methods[1].toAttention - toAttention) < 1e-9);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SeedAgreement::measure({&explainer}, three, "dev", agreeing, never));

        // The permutation test: the identity order changes nothing; another order moves the output; the
        // report's medians are those of the total variation distances recomputed here with the same orders.
        const auto tokens = e.tokens;
        std::vector<int> identity(tokens.size());
        std::iota(identity.begin(), identity.end(), 0);
        std::vector<int> reversed(identity.rbegin(), identity.rend());
        const auto permuted = explainer.probabilitiesWithAttentionPermuted(tokens, {identity, reversed});
        for (std::size_t c = 0; c < permuted[0].size(); ++c)
            QVERIFY(std::abs(permuted[0][c] - e.probabilities[c]) < 1e-6);
        QVERIFY(AttentionPermutationTest::totalVariation(permuted[1], permuted[0]) > 1e-4);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, explainer.probabilitiesWithAttentionPermuted(tokens, {{0, 0}}));
        AttentionPermutationTest::Options permutation;
        permutation.permutations = 6;
        permutation.seed = 5;
        const auto test = AttentionPermutationTest::measure(explainer, three, "dev", permutation, never);
        std::mt19937_64 random(5);
        std::vector<double> medians;
        for (const auto& example : three) {
            const auto original = explainer.probabilitiesOf({example.tokens}).front();
            std::vector<std::vector<int>> orders;
            for (int i = 0; i < 6; ++i) {
                std::vector<int> order(example.tokens.size());
                std::iota(order.begin(), order.end(), 0);
                std::shuffle(order.begin(), order.end(), random);
                orders.push_back(order);
            }
            std::vector<double> tvd;
            for (const auto& p : explainer.probabilitiesWithAttentionPermuted(example.tokens, orders))
                tvd.push_back(AttentionPermutationTest::totalVariation(original, p));
            medians.push_back(AttentionPermutationTest::quantile(tvd, 0.5));
        }
        QCOMPARE(test.tested, 3);
        QVERIFY(std::abs(test.medianTvd - AttentionPermutationTest::quantile(medians, 0.5)) < 1e-12);
        QVERIFY(std::abs(test.meanTvd - (medians[0] + medians[1] + medians[2]) / 3) < 1e-12);
        QCOMPARE(test.sentencesByPeak[0] + test.sentencesByPeak[1] + test.sentencesByPeak[2], 3);
        QCOMPARE(AttentionPermutationTest::totalVariation({0.5, 0.5}, {1, 0}), 0.5);
        QCOMPARE(AttentionPermutationTest::quantile({4, 1, 3, 2}, 0.5), 2.5);
        QCOMPARE(AttentionPermutationTest::quantile({4, 1, 3, 2}, 0.25), 1.75);

        CancelToken cancelled;
        cancelled.cancel();
        const auto stopped = FaithfulnessEvaluator(explainer).evaluate(three, "dev", options, cancelled);
        QVERIFY(!stopped.complete);
        QCOMPARE(stopped.examples, 0);
    }

    // The uniform-attention baseline: every recorded weight is 1/n over the sentence's real tokens
    // and 0 on padding; the parameter count drops by exactly the query and key projections (and RPR's key
    // table) of every layer; models without self-attention and score-side positions are refused by name;
    // the setting survives the configuration's JSON and is not written when off.
    void uniformAttentionIsUniformAndSmaller()
    {
        for (const char* name : {"ssan", "essan", "transformer"}) {
            for (const char* position : {"rpr", "none"}) {
                ModelConfig c = smallModel(name);
                c.position = position;
                torch::manual_seed(1);
                const auto learned = ModelFactory::create(c);
                c.uniformAttention = true;
                QVERIFY2(c.validate().empty(), c.validate().c_str());
                const auto uniform = ModelFactory::create(c);
                const std::int64_t d = c.dModel, in = c.inputDim(), dh = d / c.heads;
                const std::int64_t perLayer = 2 * (in * d + d) + (std::string(position) == "rpr" ? (2 * c.rprClip + 1) * dh : 0);
                QCOMPARE(learned->trainableParametersWithoutEmbedding() - uniform->trainableParametersWithoutEmbedding(),
                         c.layers * perLayer);
                uniform->eval();
                const auto ids = torch::tensor({5, 9, 13, 2, 27, 31, 8, 0, 0, 3, 4, 0, 0, 0}, torch::kLong).view({2, 7});
                const auto mask = ids.ne(0);
                torch::NoGradGuard noGrad;
                uniform->setRecordAttention(true);
                uniform->forward(ids, mask);
                const auto layers = uniform->recordedAttention();
                uniform->setRecordAttention(false);
                QCOMPARE(static_cast<int>(layers.size()), c.layers);
                for (const auto& w : layers) {
                    // Sentence 0: 7 real tokens; sentence 1: 2 (ids 3, 4 after the padding are not real either:
                    // the mask says which are).
                    const auto expected = mask.to(torch::kFloat) / mask.sum(1, true).to(torch::kFloat); // [B, T]
                    const auto diff = (w - expected.view({2, 1, 1, 7})).abs().max().item<double>();
                    QVERIFY2(diff < 1e-6, qPrintable(QString("%1 %2: %3").arg(name, position).arg(diff)));
                }
                // Fixed weights have no gradient to weight them by: attngrad says so (it threw from autograd);
                // the gradient methods still work through the values.
                const auto one = sentence({5, 9, 13, 2});
                TokenAttributor attributor(*uniform, one, torch::ones_like(one, torch::kBool), 1);
                const auto weighted = attributor.run("attngrad", {});
                QVERIFY2(!weighted.available() && weighted.note.find("fixed") != std::string::npos, weighted.note.c_str());
                QVERIFY(attributor.run("gradxinput", {}).available());
            }
        }
        ModelConfig lstm = smallModel("lstm");
        lstm.uniformAttention = true;
        QVERIFY(lstm.validate().find("uniform_attention: model 'lstm' has no self-attention") == 0);
        ModelConfig rope = smallModel("essan");
        rope.position = "rope";
        rope.uniformAttention = true;
        QVERIFY(rope.validate().find("uniform_attention: position 'rope'") == 0);

        TrainConfig t;
        QVERIFY(t.toJson().find("uniform_attention") == std::string::npos);
        t.model.uniformAttention = true;
        QVERIFY(TrainConfig::fromJson(t.toJson()).model.uniformAttention);
    }

    // The evaluator's small parts by hand: Kendall's tau-b (scipy.stats.kendalltau gives the same: 1, -1,
    // 0.8165 for [1,1,2] against [1,2,3]), the order of scores with ties, and the 11 points of a 4-token curve.
    void faithfulnessPartsByHand()
    {
        // Jensen-Shannon distance (base 2) by hand: p = (1, 0), q = (1/2, 1/2), m = (3/4, 1/4):
        // KL(p||m) = log2(4/3), KL(q||m) = (log2(2/3) + log2(2)) / 2, JSD = their mean, distance = sqrt.
        const double jsd = (std::log2(4.0 / 3.0) + (std::log2(2.0 / 3.0) + 1.0) / 2.0) / 2.0;
        QVERIFY(std::abs(SeedAgreement::jensenShannonDistance({1, 0}, {0.5, 0.5}) - std::sqrt(jsd)) < 1e-12);
        QCOMPARE(SeedAgreement::jensenShannonDistance({1, 0, 0}, {0, 0, 1}), 1.0);
        QCOMPARE(SeedAgreement::jensenShannonDistance({0.2, 0.8}, {0.2, 0.8}), 0.0);
        QCOMPARE(SeedAgreement::distributionOf({-1, 3}), (std::vector<double>{0.25, 0.75}));
        QCOMPARE(SeedAgreement::distributionOf({0, 0}), (std::vector<double>{0.5, 0.5}));
        QCOMPARE(FaithfulnessEvaluator::kendallTau({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
        QCOMPARE(FaithfulnessEvaluator::kendallTau({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
        QVERIFY(std::abs(FaithfulnessEvaluator::kendallTau({1, 1, 2}, {1, 2, 3}) - 2.0 / std::sqrt(6.0)) < 1e-12);
        QVERIFY(std::isnan(FaithfulnessEvaluator::kendallTau({1, 1, 1}, {1, 2, 3})));
        QVERIFY(std::isnan(FaithfulnessEvaluator::kendallTau({1}, {1})));
        QCOMPARE(FaithfulnessEvaluator::orderOf({0.1, 0.5, 0.5, -2}), (std::vector<int>{1, 2, 0, 3}));
        QCOMPARE(FaithfulnessEvaluator::atPoints({10, 11, 12, 13, 14}),
                 (std::vector<double>{10, 10, 11, 11, 12, 12, 12, 13, 13, 14, 14}));
    }
};

QTEST_GUILESS_MAIN(TestAttribution)
#include "test_attribution.moc"
