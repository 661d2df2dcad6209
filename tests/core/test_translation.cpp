// The encoder-decoders and their decoding, each against what can be worked out or enumerated:
// attention rows are distributions over the real source tokens, the causal mask hides later target tokens,
// beam 1 is greedy, a wide beam is an exhaustive search, each hypothesis of beams 2 and 3 carries the log-probabilities
// and attention of a forced pass over its own tokens, every model overfits a tiny set to its exact outputs,
// and the parameter counts follow from the equations.
#include "core/config/ModelConfig.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/models/Seq2SeqModel.h"
#include "core/nn/training/SequenceDecoder.h"
#include "core/nn/training/TranslationTask.h"

#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <numeric>
#include <random>

using namespace attnlab;

namespace {

struct Variant {
    std::string model, position, score, alignment;
    std::string name() const { return model + "/" + position + "/" + score + "/" + alignment; }
};

std::vector<Variant> variants()
{
    std::vector<Variant> v = {{"seq2seq", "none", "", "global"}, {"bahdanau", "none", "", "global"}};
    for (const char* score : {"dot", "general", "concat"})
        for (const char* alignment : {"global", "local-m", "local-p"})
            v.push_back({"luong", "none", score, alignment});
    for (const char* position : {"sinusoidal", "none", "learned", "rpr", "rope", "alibi"})
        v.push_back({"transformer-seq2seq", position, "", "global"});
    // Domhan's mixed models: a self-attention encoder before either recurrent decoder, a BiGRU before a Transformer decoder.
    for (const char* position : {"sinusoidal", "rpr", "none"})
        v.push_back({"transformer-bahdanau", position, "", "global"});
    v.push_back({"transformer-luong", "sinusoidal", "general", "global"});
    v.push_back({"transformer-luong", "rpr", "dot", "local-p"});
    for (const char* position : {"sinusoidal", "rpr", "rope"})
        v.push_back({"birnn-transformer", position, "", "global"});
    return v;
}

// A Transformer decoder (causal self-attention, a layer of cross-attention per decoder layer, H heads).
bool transformerDecoder(const Variant& v)
{
    return v.model == "transformer-seq2seq" || v.model == "birnn-transformer";
}

// Layers and heads on the Transformer side of a model; the recurrent side has one of each.
bool hasTransformerLayers(const Variant& v)
{
    return v.model.find("transformer") != std::string::npos;
}

ModelConfig tiny(const Variant& v, int sourceVocabulary = 12, int targetVocabulary = 10)
{
    ModelConfig c;
    c.model = v.model;
    c.position = v.position;
    c.attentionScore = v.score;
    c.alignment = v.alignment;
    c.localWindow = 1;
    c.dModel = 16;
    c.heads = hasTransformerLayers(v) ? 2 : 1;
    c.layers = hasTransformerLayers(v) ? 2 : 1;
    c.rprClip = 3;
    c.maxLength = 64;
    c.dropoutPoints = "none";
    c.vocabularySize = sourceVocabulary;
    c.targetVocabularySize = targetVocabulary;
    return c;
}

// Two sentences of different lengths: the second padded.
torch::Tensor sources()
{
    return torch::tensor({{4, 5, 6, 7, 8}, {9, 10, 11, 0, 0}}, torch::kLong);
}

} // namespace

class TestTranslation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { torch::manual_seed(3); }

    void attentionRowsAreDistributionsOverTheRealSource()
    {
        const auto source = sources(), mask = source.ne(0);
        const auto targetIn = torch::tensor({{2, 4, 5, 6}, {2, 7, 0, 0}}, torch::kLong);
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v));
            model->eval();
            torch::NoGradGuard noGrad;
            const auto forced = model->forced(source, mask, targetIn);
            QCOMPARE(forced.logits.sizes(), (torch::IntArrayRef{2, 4, 10}));
            if (v.model == "seq2seq") {
                QVERIFY(forced.cross.empty()); // no attention to show
                continue;
            }
            QCOMPARE(static_cast<int>(forced.cross.size()), model->attentionLayers());
            for (const auto& layer : forced.cross) {
                QCOMPARE(layer.size(1), static_cast<int64_t>(model->attentionHeads()));
                const auto sums = layer.sum(-1);
                QVERIFY2(torch::allclose(sums, torch::ones_like(sums), 1e-5, 1e-5), v.name().c_str());
                // Exactly zero on the second sentence's two padded source tokens.
                QCOMPARE(layer[1].slice(-1, 3, 5).abs().max().item<float>(), 0.0f);
                QVERIFY(layer.min().item<float>() >= 0.0f);
            }
            // Local-m at step t is centred on source position t: nothing beyond the window D = 1.
            if (v.alignment == "local-m") {
                const auto weights = forced.cross[0][0][0]; // [T, S] of sentence 0
                for (int t = 0; t < 4; ++t)
                    for (int s = 0; s < 5; ++s)
                        if (std::abs(s - t) > 1)
                            QCOMPARE(weights[t][s].item<float>(), 0.0f);
            }
        }
    }

    // The training step hands the encoders the source lengths from the host (no GPU read in a step); the
    // logits are the same as when the recurrent encoders count them from the mask.
    void hostLengthsGiveTheMasksResult()
    {
        const auto source = sources(), mask = source.ne(0);
        const auto targetIn = torch::tensor({{2, 4, 5, 6}, {2, 7, 0, 0}}, torch::kLong);
        const auto lengths = torch::tensor({5, 3}, torch::kLong);
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v));
            model->eval();
            torch::NoGradGuard noGrad;
            const auto fromMask = model->forward(source, mask, targetIn);
            const auto fromHost = model->forward(source, mask, lengths, targetIn, 1.0);
            QVERIFY2(torch::equal(fromMask, fromHost), v.name().c_str());
        }
    }

    // The training step projects only the real target positions (PairBatch::targetPositions); its loss, label
    // smoothing included, is the loss over every position with padding ignored, and the teacher-forced pass that
    // evaluation reads (forced) gives forward's logits.
    void theStepsLossIsOverTheRealTargetPositionsOnly()
    {
        PairIds ids;
        ids.source = {{4, 5, 6}, {7, 8}, {9, 10, 11, 4, 5}};
        ids.target = {{4, 5}, {6, 7, 8, 9, 4}, {5}};
        const auto batch = PairBatch::of(ids, {0, 1, 2}, torch::Device(torch::kCPU));
        QCOMPARE(batch.targetOut.size(1), int64_t{6}); // the longest target and its <eos>
        QCOMPARE(batch.targetTokens, int64_t{3 + 6 + 2});
        const std::vector<int64_t> expectedPositions = {0, 1, 2, 6, 7, 8, 9, 10, 11, 12, 13};
        QCOMPARE(std::vector<int64_t>(batch.targetPositions.data_ptr<int64_t>(),
                                      batch.targetPositions.data_ptr<int64_t>() + batch.targetPositions.numel()),
                 expectedPositions);
        QVERIFY(torch::equal(batch.targetOut.reshape({-1}).index_select(0, batch.targetPositions).ne(0),
                             torch::ones({batch.targetTokens}, torch::kBool)));
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v));
            model->eval();
            torch::NoGradGuard noGrad;
            const auto features = model->features(batch.source, batch.sourceMask, batch.sourceLengths, batch.targetIn, 1.0);
            const auto all = model->forward(batch.source, batch.sourceMask, batch.targetIn);
            QVERIFY2(torch::allclose(model->project(features), all, 1e-6, 1e-6), v.name().c_str());
            QVERIFY2(torch::allclose(model->forced(batch.source, batch.sourceMask, batch.targetIn).logits, all, 1e-5, 1e-6), v.name().c_str());
            namespace F = torch::nn::functional;
            const auto real = F::cross_entropy(model->project(features.reshape({-1, features.size(-1)}).index_select(0, batch.targetPositions)),
                                               batch.targetOut.reshape({-1}).index_select(0, batch.targetPositions),
                                               F::CrossEntropyFuncOptions().label_smoothing(0.1));
            const auto padded = F::cross_entropy(all.reshape({-1, all.size(-1)}), batch.targetOut.reshape({-1}),
                                                 F::CrossEntropyFuncOptions().ignore_index(0).label_smoothing(0.1));
            QVERIFY2(std::abs(real.item<double>() - padded.item<double>()) < 1e-6, v.name().c_str());
        }
    }

    // On the CPU a training batch of mixed lengths runs as two length groups (PairBatch::lengthGroups); the
    // step's loss, token count and correct count are those of the same pairs as one padded batch.
    void theStepsLengthGroupsAreTheWholeBatch()
    {
        TranslationDataset data;
        data.id = "groups";
        auto words = [](int count, int from) {
            std::vector<std::string> w;
            for (int i = 0; i < count; ++i)
                w.push_back("w" + std::to_string((from + i) % 7));
            return w;
        };
        for (int i = 0; i < 40; ++i) { // most pairs short, every fifth long
            const int length = i % 5 == 0 ? 12 : 1 + i % 3;
            data.train.push_back({words(length, i), words(length + i % 2, i + 1), "", "", {}});
        }
        data.dev = data.test = {data.train.front()};
        const auto source = Vocabulary::fromPairs(data.train, false, 1), target = Vocabulary::fromPairs(data.train, true, 1);
        PairIds ids;
        for (const auto& p : data.train) {
            ids.source.emplace_back();
            ids.target.emplace_back();
            for (const auto& w : p.source)
                ids.source.back().push_back(source.id(w));
            for (const auto& w : p.target)
                ids.target.back().push_back(target.id(w));
        }
        std::vector<std::size_t> uniform = {1, 2, 3}; // lengths 2, 3, 1 (+ 1): nothing to gain
        QCOMPARE(PairBatch::lengthGroups(ids, uniform).size(), std::size_t(1));
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v, static_cast<int>(source.size()), static_cast<int>(target.size())));
            TranslationTask task(model, data, source, target, torch::Device(torch::kCPU), TrainConfig());
            std::mt19937_64 rng(5), copy(5);
            const auto step = task.trainStep(rng, 16);
            std::uniform_int_distribution<std::size_t> pick(0, data.train.size() - 1); // trainStep's draw
            std::vector<std::size_t> rows(16);
            for (auto& r : rows)
                r = pick(copy);
            const auto groups = PairBatch::lengthGroups(ids, rows);
            QCOMPARE(groups.size(), std::size_t(2));
            std::vector<std::size_t> joined = groups[0];
            joined.insert(joined.end(), groups[1].begin(), groups[1].end());
            auto sorted = rows;
            std::sort(sorted.begin(), sorted.end());
            std::sort(joined.begin(), joined.end());
            QCOMPARE(joined, sorted); // a partition of the batch
            torch::NoGradGuard noGrad;
            const auto batch = PairBatch::of(ids, rows, torch::Device(torch::kCPU));
            const auto all = model->forward(batch.source, batch.sourceMask, batch.targetIn);
            const auto flat = all.reshape({-1, all.size(-1)}), expected = batch.targetOut.reshape({-1});
            const auto loss = torch::nn::functional::cross_entropy(flat, expected, torch::nn::functional::CrossEntropyFuncOptions().ignore_index(0));
            QVERIFY2(std::abs(step.loss.item<double>() - loss.item<double>()) < 1e-5, v.name().c_str());
            QCOMPARE(step.count, batch.targetTokens);
            QCOMPARE(step.trainMetric.item<std::int64_t>(), flat.argmax(1).eq(expected).logical_and(expected.ne(0)).sum().item<std::int64_t>());
        }
    }

    void theCausalMaskHidesLaterTargetTokens()
    {
        for (const auto& v : variants()) {
            if (!transformerDecoder(v))
                continue;
            auto model = ModelFactory::createTranslator(tiny(v));
            model->eval();
            torch::NoGradGuard noGrad;
            const auto source = sources(), mask = source.ne(0);
            const auto a = torch::tensor({{2, 4, 5, 6, 7}, {2, 7, 8, 9, 4}}, torch::kLong);
            auto b = a.clone();
            b.select(1, 3).fill_(9); // change token 3 only
            const auto la = model->forced(source, mask, a), lb = model->forced(source, mask, b);
            QVERIFY2(torch::equal(la.logits.slice(1, 0, 3), lb.logits.slice(1, 0, 3)), v.name().c_str());
            QVERIFY(!torch::allclose(la.logits.slice(1, 3, 5), lb.logits.slice(1, 3, 5)));
            for (std::size_t l = 0; l < la.decoderSelf.size(); ++l) // no weight above the diagonal
                QCOMPARE(la.decoderSelf[l].triu(1).abs().max().item<float>(), 0.0f);
            // The step-by-step decoder (its keys-and-values cache, every position technique, RPR's clip of 3
            // reached at t = 4) gives what the parallel pass gives: logits and each layer's cross-attention row.
            auto encoded = model->encode(source, mask);
            auto state = model->start(encoded);
            for (int64_t t = 0; t < 5; ++t) {
                const auto out = model->step(encoded, state, a.select(1, t), t);
                QVERIFY2(torch::allclose(out.logits, la.logits.select(1, t), 1e-5, 1e-5), v.name().c_str());
                std::vector<torch::Tensor> rows;
                for (const auto& layer : la.cross)
                    rows.push_back(layer.select(2, t));
                QVERIFY2(torch::allclose(out.attention, torch::cat(rows, 1), 1e-5, 1e-6), v.name().c_str());
            }
        }
    }

    void beamOfOneIsGreedy()
    {
        const auto source = sources(), mask = source.ne(0);
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v));
            model->eval();
            const std::vector<int> limits = {7, 5};
            const auto greedy = SequenceDecoder::greedy(*model, source, mask, limits);
            const auto beam = SequenceDecoder::beam(*model, source, mask, 1, 0.0, limits);
            QCOMPARE(beam.size(), std::size_t(2));
            for (std::size_t i = 0; i < 2; ++i) {
                QCOMPARE(beam[i].front().tokens, greedy[i].tokens);
                QCOMPARE(beam[i].front().logProbabilities.size(), greedy[i].logProbabilities.size());
                for (std::size_t t = 0; t < greedy[i].logProbabilities.size(); ++t)
                    QVERIFY(std::abs(beam[i].front().logProbabilities[t] - greedy[i].logProbabilities[t]) < 1e-5);
                QVERIFY(static_cast<int>(greedy[i].tokens.size()) <= limits[i]);
                if (greedy[i].attention.defined()) { // a row per token and <eos>, each summing to 1
                    QCOMPARE(greedy[i].attention.size(0), static_cast<int64_t>(greedy[i].tokens.size() + 1));
                    QVERIFY(torch::allclose(greedy[i].attention.sum(-1), torch::ones({greedy[i].attention.size(0), greedy[i].attention.size(1)}), 1e-5, 1e-5));
                    QVERIFY(torch::allclose(beam[i].front().attention, greedy[i].attention, 1e-5, 1e-5));
                }
            }
        }
    }

    // Each beam hypothesis carries what a teacher-forced pass over its own tokens computes: every token's
    // log-probability (and <eos>'s when it finished) and every step's cross-attention row, layer by layer. Beams of 2
    // and 3 over a batch, every translation model; the cases must include pruning (a hypothesis extending one that
    // was not the best alive) and <eos> chosen from outside the model's top K at a step, or the test proves little.
    void eachBeamHypothesisEqualsAForcedPassOverItsTokens()
    {
        const auto source = sources(), mask = source.ne(0);
        int reordered = 0, endOutsideTopK = 0, compared = 0;
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v));
            model->eval();
            torch::NoGradGuard noGrad;
            for (int beamSize : {2, 3}) {
                const std::vector<int> limits = {7, 5};
                const auto beams = SequenceDecoder::beam(*model, source, mask, beamSize, 0.6, limits);
                QCOMPARE(beams.size(), std::size_t(2));
                for (std::size_t i = 0; i < beams.size(); ++i) {
                    const auto row = source.slice(0, static_cast<int64_t>(i), static_cast<int64_t>(i) + 1);
                    const auto rowMask = mask.slice(0, static_cast<int64_t>(i), static_cast<int64_t>(i) + 1);
                    QVERIFY(!beams[i].empty() && static_cast<int>(beams[i].size()) <= beamSize);
                    for (const auto& h : beams[i]) {
                        std::vector<int64_t> in = {Seq2SeqModel::kBos};
                        in.insert(in.end(), h.tokens.begin(), h.tokens.end());
                        const auto forced = model->forced(row, rowMask, torch::tensor(in, torch::kLong).unsqueeze(0));
                        const auto logp = torch::log_softmax(forced.logits[0], -1); // [T + 1, V]
                        const std::size_t steps = h.tokens.size() + (h.finished ? 1 : 0);
                        QVERIFY(h.logProbabilities.size() >= steps);
                        double total = 0.0;
                        for (std::size_t t = 0; t < steps; ++t) {
                            const int64_t token = t < h.tokens.size() ? h.tokens[t] : Seq2SeqModel::kEos;
                            const float want = logp[static_cast<int64_t>(t)][token].item<float>();
                            QVERIFY2(std::abs(h.logProbabilities[t] - want) < 1e-4,
                                     (v.name() + " beam " + std::to_string(beamSize) + " step " + std::to_string(t)).c_str());
                            total += want;
                            // <eos> chosen though K other tokens were likelier at that step
                            if (token == Seq2SeqModel::kEos && (logp[static_cast<int64_t>(t)] > want).sum().item<int64_t>() >= beamSize)
                                ++endOutsideTopK;
                        }
                        if (h.finished)
                            QVERIFY2(std::abs(h.logProbability - total) < 1e-3, v.name().c_str());
                        for (std::size_t t = 0; t < h.parents.size(); ++t)
                            reordered += h.parents[t] != 0;
                        if (!h.attention.defined()) {
                            QVERIFY2(forced.cross.empty(), v.name().c_str());
                            continue;
                        }
                        for (std::size_t t = 0; t < steps; ++t) {
                            std::vector<torch::Tensor> rows; // [layers * heads, S] as the decoder records a step
                            for (const auto& layer : forced.cross)
                                rows.push_back(layer[0].select(1, static_cast<int64_t>(t)));
                            QVERIFY2(torch::allclose(h.attention[static_cast<int64_t>(t)], torch::cat(rows, 0), 1e-4, 1e-5),
                                     (v.name() + " beam " + std::to_string(beamSize) + " attention step " + std::to_string(t)).c_str());
                        }
                        ++compared;
                    }
                }
            }
        }
        qInfo("%d hypotheses compared; %d steps extended a lower-ranked one; <eos> outside the top K %d times", compared, reordered, endOutsideTopK);
        QVERIFY(compared > 40);
        QVERIFY2(reordered > 0, "no hypothesis extended a lower-ranked one: pruning never happened");
        QVERIFY2(endOutsideTopK > 0, "<eos> was never taken from outside the top K: that case is untested");
    }

    // Drawn translations (TokenSampler, a language model's rule): top-k 1 is greedy; a seed draws the same again;
    // each sentence draws from its own stream, so the batch does not change it; every drawn word's log-probability is
    // the model's own (a forced pass over the drawn words); a beam with sampling and bad settings are refused.
    void aDrawnTranslationIsReproducibleAndTheModelsOwn()
    {
        const auto source = sources(), mask = source.ne(0);
        int differentFromGreedy = 0;
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v));
            model->eval();
            torch::NoGradGuard noGrad;
            SequenceDecoder::Settings settings;
            settings.maxLength = 7;
            const auto greedy = SequenceDecoder::decode(*model, source, mask, settings);
            settings.sampling = SamplingSettings{};
            settings.sampling->topK = 1;
            const auto topOne = SequenceDecoder::decode(*model, source, mask, settings);
            settings.sampling->topK = 0;
            settings.sampling->seed = 5;
            const auto drawn = SequenceDecoder::decode(*model, source, mask, settings);
            const auto again = SequenceDecoder::decode(*model, source, mask, settings);
            for (int64_t i = 0; i < source.size(0); ++i) {
                const auto& h = drawn[static_cast<std::size_t>(i)].front();
                QCOMPARE(topOne[static_cast<std::size_t>(i)].front().tokens, greedy[static_cast<std::size_t>(i)].front().tokens);
                QCOMPARE(again[static_cast<std::size_t>(i)].front().tokens, h.tokens);
                differentFromGreedy += h.tokens != greedy[static_cast<std::size_t>(i)].front().tokens;
                auto alone = settings; // the same stream (seed 5 + i) with no other sentence beside it
                alone.seeds = {5 + static_cast<std::uint64_t>(i)};
                const auto row = source.slice(0, i, i + 1), rowMask = mask.slice(0, i, i + 1);
                QVERIFY2(SequenceDecoder::decode(*model, row, rowMask, alone).front().front().tokens == h.tokens, v.name().c_str());
                std::vector<int64_t> in = {Seq2SeqModel::kBos};
                in.insert(in.end(), h.tokens.begin(), h.tokens.end());
                const auto logp = torch::log_softmax(model->forced(row, rowMask, torch::tensor(in, torch::kLong).unsqueeze(0)).logits[0], -1);
                for (std::size_t t = 0; t < h.tokens.size() + (h.finished ? 1 : 0); ++t) {
                    const int64_t token = t < h.tokens.size() ? h.tokens[t] : Seq2SeqModel::kEos;
                    QVERIFY2(std::abs(h.logProbabilities[t] - logp[static_cast<int64_t>(t)][token].item<float>()) < 1e-4, v.name().c_str());
                }
            }
            settings.beamSize = 2;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SequenceDecoder::decode(*model, source, mask, settings));
            settings.beamSize = 1;
            settings.sampling->temperature = 0.0;
            try {
                SequenceDecoder::decode(*model, source, mask, settings);
                QFAIL("temperature 0 was accepted");
            } catch (const std::invalid_argument& e) {
                QVERIFY2(std::string(e.what()).rfind("temperature:", 0) == 0, e.what());
            }
        }
        QVERIFY2(differentFromGreedy > 0, "no drawn translation differed from greedy: nothing was drawn");
    }

    // Greedy decoding drops a finished sentence from the batch; every sentence still gets what it gets alone.
    void aBatchDecodesAsEachSentenceAlone()
    {
        const auto source = torch::tensor({{4, 5, 6, 7, 8}, {9, 10, 11, 0, 0}, {5, 0, 0, 0, 0}, {6, 7, 8, 9, 0}}, torch::kLong);
        const auto mask = source.ne(0);
        const std::vector<int> limits = {3, 9, 1, 12}; // sentences end at different steps
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v));
            model->eval();
            const auto batch = SequenceDecoder::greedy(*model, source, mask, limits);
            for (int64_t i = 0; i < source.size(0); ++i) {
                const auto row = source.slice(0, i, i + 1), rowMask = mask.slice(0, i, i + 1);
                const auto alone = SequenceDecoder::greedy(*model, row, rowMask, {limits[static_cast<std::size_t>(i)]}).front();
                const auto& h = batch[static_cast<std::size_t>(i)];
                QVERIFY2(h.tokens == alone.tokens, v.name().c_str());
                QCOMPARE(h.finished, alone.finished);
                QCOMPARE(h.logProbabilities.size(), alone.logProbabilities.size());
                for (std::size_t t = 0; t < h.logProbabilities.size(); ++t)
                    QVERIFY2(std::abs(h.logProbabilities[t] - alone.logProbabilities[t]) < 1e-5, v.name().c_str());
                if (h.attention.defined()) // the batch's source is padded to 5: the row's own columns, zero beyond
                    QVERIFY2(torch::allclose(h.attention.slice(-1, 0, alone.attention.size(-1)), alone.attention, 1e-5, 1e-5),
                             v.name().c_str());
            }
        }
    }

    void aWideBeamIsAnExhaustiveSearch()
    {
        // Target vocabulary <pad> <unk> <bos> <eos> a b: every output is a sequence over {<unk>, a, b} of at most
        // 3 tokens and then <eos> (40 of them; <pad> and <bos> are never produced). Scored by a teacher-forced
        // pass, the best of all 40 must be what a beam wide enough to keep them all returns.
        const auto source = torch::tensor({{4, 5, 6}}, torch::kLong), mask = source.ne(0);
        for (const auto& v : variants()) {
            auto model = ModelFactory::createTranslator(tiny(v, 12, 6));
            model->eval();
            torch::NoGradGuard noGrad;
            for (double alpha : {0.0, 1.0}) {
                double best = -1e300;
                std::vector<int64_t> bestTokens;
                std::function<void(std::vector<int64_t>)> visit = [&](std::vector<int64_t> prefix) {
                    std::vector<int64_t> in = {Seq2SeqModel::kBos};
                    in.insert(in.end(), prefix.begin(), prefix.end());
                    const auto logits = model->forced(source, mask, torch::tensor(in, torch::kLong).unsqueeze(0)).logits[0];
                    const auto logp = torch::log_softmax(logits, -1);
                    double total = 0.0;
                    for (std::size_t t = 0; t < prefix.size(); ++t)
                        total += logp[static_cast<int64_t>(t)][prefix[t]].item<double>();
                    total += logp[static_cast<int64_t>(prefix.size())][Seq2SeqModel::kEos].item<double>();
                    const double score = total / SequenceDecoder::lengthPenalty(static_cast<int>(prefix.size()) + 1, alpha);
                    if (score > best) {
                        best = score;
                        bestTokens = prefix;
                    }
                    if (prefix.size() < 3)
                        for (int64_t token : {1, 4, 5}) {
                            auto longer = prefix;
                            longer.push_back(token);
                            visit(longer);
                        }
                };
                visit({});
                const auto beam = SequenceDecoder::beam(*model, source, mask, 64, alpha, {3});
                QVERIFY2(beam[0].front().tokens == bestTokens, v.name().c_str());
                QVERIFY(std::abs(beam[0].front().score - best) < 1e-4);
            }
        }
    }

    void everyModelOverfitsATinySet()
    {
        // Eight copy pairs (monotone, so local-m's window can hold the answer too); every target reproduced exactly, greedily.
        PairIds ids;
        std::mt19937 rng(5);
        for (int i = 0; i < 8; ++i) {
            std::vector<int64_t> s;
            for (int j = 0; j < 3 + i % 3; ++j)
                s.push_back(4 + static_cast<int64_t>(rng() % 6));
            ids.source.push_back(s);
            ids.target.push_back(s); // target ids 4..9 of a vocabulary of 10
        }
        std::vector<std::size_t> rows(8);
        std::iota(rows.begin(), rows.end(), 0);
        const auto batch = PairBatch::of(ids, rows, torch::kCPU);
        for (const auto& v : variants()) {
            // One absolute and one relative technique suffice here. Without any (none), the Transformer does not
            // reproduce every pair in order: it has no way to tell positions apart but the causal mask, which is
            // the lesson of position encodings, not a fault of the decoder.
            if (v.position == "alibi" || v.position == "rope" || v.position == "learned" || v.position == "none")
                continue;
            torch::manual_seed(1);
            auto config = tiny(v);
            config.dModel = 32;
            auto model = ModelFactory::createTranslator(config);
            torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(hasTransformerLayers(v) ? 3e-3 : 1e-2));
            model->train();
            for (int step = 0; step < 400; ++step) {
                adam.zero_grad();
                const auto logits = model->forward(batch.source, batch.sourceMask, batch.targetIn);
                torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(-1)}), batch.targetOut.reshape({-1}),
                                                     torch::nn::functional::CrossEntropyFuncOptions().ignore_index(0))
                    .backward();
                adam.step();
            }
            model->eval();
            const auto decoded = SequenceDecoder::greedy(*model, batch.source, batch.sourceMask, std::vector<int>(8, 12));
            for (std::size_t i = 0; i < 8; ++i)
                QVERIFY2(decoded[i].tokens == ids.target[i], (v.name() + " pair " + std::to_string(i)).c_str());
        }
    }

    void parameterCountsFollowFromTheEquations()
    {
        const int64_t e = 16, d = 16, vt = 10;
        auto gru = [](int64_t in, int64_t h) { return 3 * (h * in + h * h + 2 * h); };
        // seq2seq: GRU(e, d); bridge d -> d; decoder GRU([y; c] = e + d); output [y; s; c] -> V.
        QCOMPARE(ModelFactory::createTranslator(tiny(variants()[0]))->trainableParametersWithoutEmbedding(),
                 gru(e, d) + (d * d + d) + gru(e + d, d) + ((e + 2 * d) * vt + vt));
        // bahdanau: BiGRU; bridge 2d -> d; additive W (d x d), U (2d x d), v (d); decoder GRU(e + 2d); output (e + 3d) -> V.
        QCOMPARE(ModelFactory::createTranslator(tiny(variants()[1]))->trainableParametersWithoutEmbedding(),
                 2 * gru(e, d) + (2 * d * d + d) + (d * d + 2 * d * d + d) + gru(e + 2 * d, d) + ((e + 3 * d) * vt + vt));
        // luong general global: BiGRU; bridge; keys 2d -> d; W_a d x d; decoder GRU(e + d); W_c 2d -> d; W_s d -> V.
        QCOMPARE(ModelFactory::createTranslator(tiny({"luong", "none", "general", "global"}))->trainableParametersWithoutEmbedding(),
                 2 * gru(e, d) + (2 * d * d + d) + 2 * d * d + d * d + gru(e + d, d) + 2 * d * d + (d * vt + vt));
        // luong concat local-p: concat's W (d x d, d x d + bias) and v, plus local-p's W_p (d x d) and v_p (d).
        QCOMPARE(ModelFactory::createTranslator(tiny({"luong", "none", "concat", "local-p"}))->trainableParametersWithoutEmbedding(),
                 2 * gru(e, d) + (2 * d * d + d) + 2 * d * d + (d * d + d * d + d + d) + (d * d + d) + gru(e + d, d) + 2 * d * d +
                     (d * vt + vt));
        // Transformer, sinusoidal, 2 + 2 layers, FFN 4d: encoder layer 4(d^2 + d) + 2 LN + FFN; decoder layer adds
        // cross-attention and a third LN; two final LNs; output d -> V.
        const int64_t attention = 4 * (d * d + d), norm = 2 * d, ffn = (d * 4 * d + 4 * d) + (4 * d * d + d);
        QCOMPARE(ModelFactory::createTranslator(tiny(variants()[11]))->trainableParametersWithoutEmbedding(),
                 2 * (attention + 2 * norm + ffn) + 2 * (2 * attention + 3 * norm + ffn) + 2 * norm + (d * vt + vt));
        // transformer-bahdanau: the same 2 encoder layers and final LN; bridge d -> d (from the mean state); additive
        // W (d x d), U (d x d: h_j is d wide now), v; decoder GRU(e + d); output (e + 2d) -> V.
        QCOMPARE(ModelFactory::createTranslator(tiny({"transformer-bahdanau", "sinusoidal", "", "global"}))->trainableParametersWithoutEmbedding(),
                 2 * (attention + 2 * norm + ffn) + norm + (d * d + d) + (2 * d * d + d) + gru(e + d, d) + ((e + 2 * d) * vt + vt));
        // transformer-luong general global: encoder; bridge; keys d -> d; W_a; decoder GRU(e + d); W_c 2d -> d; W_s.
        QCOMPARE(ModelFactory::createTranslator(tiny({"transformer-luong", "sinusoidal", "general", "global"}))->trainableParametersWithoutEmbedding(),
                 2 * (attention + 2 * norm + ffn) + norm + (d * d + d) + d * d + d * d + gru(e + d, d) + 2 * d * d + (d * vt + vt));
        // birnn-transformer: a 2-layer BiGRU (the second layer reads 2d), its projection 2d -> d and LN; the 2
        // decoder layers, their final LN, the output.
        QCOMPARE(ModelFactory::createTranslator(tiny({"birnn-transformer", "sinusoidal", "", "global"}))->trainableParametersWithoutEmbedding(),
                 2 * gru(d, d) + 2 * gru(2 * d, d) + (2 * d * d + d) + norm + 2 * (2 * attention + 3 * norm + ffn) + norm + (d * vt + vt));
    }

    // Each mixed model takes its decoder's settings and refuses the other family's, by name.
    void mixedModelsTakeTheirDecodersSettings()
    {
        auto problem = [](const Variant& v) { return tiny(v).validate(); };
        QCOMPARE(problem({"transformer-luong", "rpr", "concat", "local-m"}), std::string());
        QCOMPARE(problem({"transformer-bahdanau", "alibi", "dot", "global"}), std::string());
        QCOMPARE(problem({"transformer-bahdanau", "sinusoidal", "", "local-p"}),
                 std::string("alignment: local attention is Luong's (models luong, transformer-luong); 'transformer-bahdanau' attends globally"));
        QVERIFY(problem({"birnn-transformer", "sinusoidal", "general", "global"}).rfind("attention_score: model 'birnn-transformer' has a Transformer decoder", 0) == 0);
        QVERIFY(problem({"birnn-transformer", "sinusoidal", "", "local-m"}).rfind("alignment: model 'birnn-transformer'", 0) == 0);
        QVERIFY(problem({"transformer-seq2seq", "sinusoidal", "dot", "global"}).rfind("attention_score: model 'transformer-seq2seq'", 0) == 0);
        QVERIFY(problem({"bahdanau", "sinusoidal", "", "global"}).rfind("position: 'sinusoidal' does not apply to model 'bahdanau'", 0) == 0);
        // The Transformer layers read words of d_model: another embedding size is refused by name.
        auto wide = tiny({"transformer-bahdanau", "sinusoidal", "", "global"});
        wide.embeddingDim = 8;
        QVERIFY(wide.validate().rfind("embedding_dim: model 'transformer-bahdanau' scales word vectors of d_model (16)", 0) == 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ModelFactory::createTranslator(wide));
    }

    void lengthPenaltyIsGnmts()
    {
        QCOMPARE(SequenceDecoder::lengthPenalty(7, 0.0), 1.0);
        QVERIFY(std::abs(SequenceDecoder::lengthPenalty(7, 1.0) - 2.0) < 1e-12);       // (5 + 7) / 6
        QVERIFY(std::abs(SequenceDecoder::lengthPenalty(1, 0.6) - 1.0) < 1e-12);       // (5 + 1) / 6 = 1
        QVERIFY(std::abs(SequenceDecoder::lengthPenalty(13, 0.5) - std::sqrt(3.0)) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestTranslation)
#include "test_translation.moc"
