// Language models, each part against what can be worked out by hand: the text's tokens and back byte for byte,
// n-gram probabilities and perplexity by hand, the causal mask, cached generation against recomputation, every
// model overfitting a tiny text, the refusals of bad text files, and a run through the trainer into the store.
// (The sampling rules and the decoding loop: test_decoding.)
#include "core/analysis/AttentionStepsTable.h"
#include "core/config/SamplingSettings.h"
#include "core/data/DataError.h"
#include "core/data/LanguageModelText.h"
#include "core/data/readers/SyntheticRepeat.h"
#include "core/data/readers/TextCorpusReader.h"
#include "core/nn/layers/AttentionInputRecorder.h"
#include "core/nn/layers/SelfAttention.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/models/NgramModel.h"
#include "core/nn/training/LanguageModelTask.h"
#include "core/nn/training/TextGeneration.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/TextGenerator.h"
#include "core/training/Trainer.h"
#include "tests/support/AdamSteps.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>
#include <functional>
#include <numeric>
#include <set>

using namespace attnlab;

namespace {

ModelConfig tiny(const std::string& model, const std::string& position, int vocabulary)
{
    ModelConfig c;
    c.model = model;
    c.position = position;
    c.dModel = 16;
    c.heads = 2;
    c.layers = 2;
    c.rprClip = 3;
    c.context = 12;
    c.vocabularySize = vocabulary;
    c.dropoutPoints = "none";
    return c;
}

std::vector<std::string> gptPositions() { return {"learned", "sinusoidal", "none", "rope", "alibi", "rpr"}; }

void writeFile(const QString& path, const std::string& bytes)
{
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << bytes;
}

// A language-model dataset of one text, split as the reader splits it.
LanguageModelDataset datasetOf(const std::string& text)
{
    LanguageModelDataset d;
    d.id = "test";
    d.unit = "characters";
    const auto tokens = LanguageModelText::split(text, "characters");
    d.vocabulary = LanguageModelText::vocabularyOf(tokens);
    const auto ids = LanguageModelText::encode(tokens, d.vocabulary, "characters");
    d.train = d.dev = d.test = ids;
    d.prompt = text.substr(0, 1);
    return d;
}

} // namespace

class TestLanguageModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void charactersGiveTheTextBackByteForByte()
    {
        const std::string text = "ROMEO:\nBut soft! what light — é, 北, 😀\r\n\tend";
        const auto tokens = LanguageModelText::split(text, "characters");
        QCOMPARE(tokens.size(), std::size_t(43)); // code points, not bytes: the dash, é, 北 and 😀 are one each
        const auto vocabulary = LanguageModelText::vocabularyOf(tokens);
        const auto ids = LanguageModelText::encode(tokens, vocabulary, "characters");
        std::vector<std::string> back;
        for (auto id : ids)
            back.push_back(vocabulary[static_cast<std::size_t>(id)]);
        QCOMPARE(LanguageModelText::join(back, "characters"), text);
        // Words: runs of non-space with each line end a token; joined back with single spaces.
        const auto words = LanguageModelText::split("to be,  or\nnot", "words");
        QCOMPARE(words, (std::vector<std::string>{"to", "be,", "or", "\n", "not"}));
        QCOMPARE(LanguageModelText::join(words, "words"), std::string("to be, or\nnot"));
        // A token the vocabulary lacks is named with its place.
        try {
            LanguageModelText::encode(LanguageModelText::split("abz", "characters"), {"a", "b"}, "characters");
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("'z' (token 3)") != std::string::npos, e.what());
        }
    }

    void ngramProbabilitiesByHand()
    {
        // Train "abab" then "aab": ids a=0, b=1, c=2 (c never in train). V = 3.
        const std::vector<std::int32_t> train = {0, 1, 0, 1, 0, 0, 1};
        ModelConfig c = tiny("ngram", "none", 3);
        c.order = 2;
        c.smoothing = "add-k";
        c.addK = 1.0;
        NgramModel addOne(c);
        addOne.estimate(train);
        // Bigrams: ab x3, ba x2, aa x1. After a: a 1, b 3, c 0 of 4 -> (1+1)/7, (3+1)/7, 1/7.
        auto p = addOne.distribution({0});
        QVERIFY(std::abs(p[0] - 2.0 / 7) < 1e-12 && std::abs(p[1] - 4.0 / 7) < 1e-12 && std::abs(p[2] - 1.0 / 7) < 1e-12);
        // No history (the window's first token): unigrams a 4, b 3 of 7 -> (4+1)/10, (3+1)/10, 1/10.
        p = addOne.distribution({});
        QVERIFY(std::abs(p[0] - 0.5) < 1e-12 && std::abs(p[1] - 0.4) < 1e-12 && std::abs(p[2] - 0.1) < 1e-12);

        c.smoothing = "kneser-ney";
        NgramModel kn(c);
        kn.estimate(train);
        // Top order (bigrams after a: a 1, b 3; total 4, 2 distinct). Count-of-counts of bigrams: ab 3, ba 2, aa 1 ->
        // n1 = 1, n2 = 1, D = 1/3. Continuation unigrams: a follows b and a (2), b follows a (1): total 3, 2 distinct,
        // their counts-of-counts n1 = 1 (b), n2 = 1 (a): D' = 1/3.
        // P_cont(w) = max(N1+(.w) - D', 0)/3 + D' * 2/3 * 1/3: a (2-1/3)/3 + 2/27, b (1-1/3)/3 + 2/27, c 2/27.
        const double D = 1.0 / 3, pa = (2 - D) / 3 + D * 2 / 3 / 3, pb = (1 - D) / 3 + D * 2 / 3 / 3, pc = D * 2 / 3 / 3;
        QVERIFY(std::abs(pa + pb + pc - 1.0) < 1e-12);
        p = kn.distribution({0});
        QVERIFY2(std::abs(p[0] - ((1 - D) / 4 + D * 2 / 4 * pa)) < 1e-12, qPrintable(QString::number(p[0])));
        QVERIFY(std::abs(p[1] - ((3 - D) / 4 + D * 2 / 4 * pb)) < 1e-12);
        QVERIFY(std::abs(p[2] - (D * 2 / 4 * pc)) < 1e-12);
        // After c (never seen): the continuation unigrams as they are.
        p = kn.distribution({2});
        QVERIFY(std::abs(p[0] - pa) < 1e-12 && std::abs(p[2] - pc) < 1e-12);
        // Every order and smoothing gives distributions.
        for (int order = 1; order <= 4; ++order)
            for (const char* smoothing : {"add-k", "kneser-ney"}) {
                c.order = order;
                c.smoothing = smoothing;
                NgramModel m(c);
                m.estimate(train);
                for (const auto& history : std::vector<std::vector<std::int32_t>>{{}, {0}, {1, 0}, {2, 2, 1}, {0, 1, 0, 1}}) {
                    const auto q = m.distribution(history);
                    QVERIFY2(std::abs(std::accumulate(q.begin(), q.end(), 0.0) - 1.0) < 1e-12, smoothing);
                }
            }
    }

    void perplexityOfASplitByHand()
    {
        // An add-1 bigram evaluated on "ab" then "ba": loss = mean of -ln P over the scored tokens.
        LanguageModelDataset d = datasetOf("abab");
        d.dev = {0, 1, 0};   // scores b after a, a after b
        d.test = {1, 1};     // scores b after b
        TrainConfig config;
        config.model = tiny("ngram", "none", 2);
        config.model.order = 2;
        config.model.smoothing = "add-k";
        config.model.context = 2;
        config.sampleTokens = 0;
        auto model = ModelFactory::createLanguageModel(config.model);
        dynamic_cast<NgramModel&>(*model).estimate(d.train);
        LanguageModelTask task(model, d, torch::kCPU, config);
        // Bigrams of "abab": ab 2, ba 1. After a: b (2+1)/(2+2) = 3/4; after b: a (1+1)/(1+2) = 2/3, b 1/3.
        const auto dev = task.evaluate(false);
        const double loss = -(std::log(0.75) + std::log(2.0 / 3)) / 2;
        QCOMPARE(dev.metrics[0].first, std::string("loss"));
        QVERIFY(std::abs(dev.metrics[0].second - loss) < 1e-6);
        QVERIFY(std::abs(dev.metrics[1].second - loss / std::log(2.0)) < 1e-6); // bits per token
        QVERIFY(std::abs(dev.metrics[2].second - std::exp(loss)) < 1e-5);       // perplexity
        QVERIFY(std::abs(task.evaluate(true).metrics[0].second + std::log(1.0 / 3)) < 1e-6);
    }

    void aLaterTokenNeverChangesAnEarlierOutput()
    {
        torch::manual_seed(3);
        for (const auto& position : gptPositions()) {
            auto model = ModelFactory::createLanguageModel(tiny("gpt", position, 7));
            model->eval();
            auto ids = torch::tensor({{1, 2, 3, 4, 5, 6, 0, 1}}, torch::kLong);
            const auto before = model->forward(ids);
            ids[0][5] = 2; // change token 5
            std::vector<torch::Tensor> attention;
            const auto after = model->forward(ids, &attention);
            QVERIFY2(torch::allclose(before.narrow(1, 0, 5), after.narrow(1, 0, 5), 0, 1e-6), position.c_str());
            QVERIFY(!torch::allclose(before.narrow(1, 5, 1), after.narrow(1, 5, 1), 0, 1e-6));
            // Every attention row a distribution over itself and the tokens before it, nothing on later ones.
            QCOMPARE(attention.size(), std::size_t(2));
            for (const auto& layer : attention) {
                QVERIFY(torch::allclose(layer.sum(-1), torch::ones_like(layer.sum(-1)), 0, 1e-5));
                QCOMPARE(layer.triu(1).abs().max().item<float>(), 0.0f);
            }
        }
    }

    // Training keeps no weights, so a layer may take LibTorch's fused kernel (2.x) instead of the lab's own
    // softmax(q k^T / sqrt(d_k)) v: the same logits and the same gradients, every position technique, scaled or not.
    void attentionWithoutWeightsEqualsTheOneThatKeepsThem()
    {
        torch::manual_seed(11);
        const auto ids = torch::tensor({{3, 1, 4, 1, 5, 8, 2, 6, 5, 3}, {2, 7, 1, 8, 2, 8, 1, 8, 2, 8}}, torch::kLong);
        for (const bool scaled : {true, false})
            for (const auto& position : gptPositions()) {
                auto config = tiny("gpt", position, 9);
                config.scaled = scaled;
                auto model = ModelFactory::createLanguageModel(config);
                model->train();
                auto gradients = [&](bool keepWeights) {
                    model->zero_grad();
                    std::vector<torch::Tensor> attention;
                    const auto logits = model->forward(ids, keepWeights ? &attention : nullptr);
                    (logits * torch::linspace(-1, 1, logits.numel()).view(logits.sizes())).sum().backward();
                    std::vector<torch::Tensor> out{logits.detach()};
                    for (const auto& p : model->parameters())
                        out.push_back(p.grad().clone());
                    return out;
                };
                const auto fused = gradients(false), kept = gradients(true);
                const auto name = position + (scaled ? "" : ", not scaled");
                for (std::size_t i = 0; i < fused.size(); ++i)
                    QVERIFY2(torch::allclose(fused[i], kept[i], 1e-4, 1e-5), qPrintable(QString::fromStdString(name) + " tensor " + QString::number(i)));
            }
    }

    void cachedGenerationEqualsRecomputation()
    {
        torch::manual_seed(5);
        std::vector<ModelConfig> configs;
        for (const auto& position : gptPositions())
            configs.push_back(tiny("gpt", position, 9));
        auto attentionOnly = tiny("gpt", "learned", 9);
        attentionOnly.attentionOnly = true;
        configs.push_back(attentionOnly);
        for (const char* cell : {"lstm", "gru", "rnn", "irnn"}) {
            auto rnn = tiny("char-rnn", "none", 9);
            rnn.cell = cell;
            configs.push_back(rnn);
        }
        for (int order : {2, 3, 5}) { // windows shorter and longer than the chunks below
            auto window = tiny("ffn-lm", "none", 9);
            window.order = order;
            configs.push_back(window);
        }
        const auto ids = torch::tensor({{3, 1, 4, 1, 5, 8, 2, 6, 5, 3}}, torch::kLong);
        for (const auto& config : configs) {
            auto model = ModelFactory::createLanguageModel(config);
            model->eval();
            torch::NoGradGuard noGrad;
            std::vector<torch::Tensor> whole;
            const auto full = model->forward(ids, &whole);
            auto state = model->start(1);
            for (std::int64_t t = 0; t < ids.size(1); ++t) {
                std::vector<torch::Tensor> rows;
                const auto logits = model->step(state, ids.narrow(1, t, 1), &rows);
                QVERIFY2(torch::allclose(logits, full[0][t].unsqueeze(0), 1e-5, 1e-5),
                         qPrintable(QString::fromStdString(config.model + "/" + config.position + "/" + config.cell) + " at " + QString::number(t)));
                for (std::size_t l = 0; l < rows.size(); ++l) // the step's attention row equals the whole pass's row t
                    QVERIFY(torch::allclose(rows[l].reshape({-1}), whole[l][0].select(1, t).narrow(1, 0, t + 1).reshape({-1}), 1e-5, 1e-6));
            }
            // Several tokens in one step (a prompt read in one pass, a window made again): the last one's logits and
            // attention rows, and a cache the following steps go on from as if read token by token.
            auto chunked = model->start(1);
            std::int64_t read = 0;
            for (std::int64_t size : {4, 3, 1, 2}) {
                std::vector<torch::Tensor> rows;
                const auto logits = model->step(chunked, ids.narrow(1, read, size), &rows);
                read += size;
                QCOMPARE(chunked.position, read);
                QVERIFY2(torch::allclose(logits, full[0][read - 1].unsqueeze(0), 1e-5, 1e-5),
                         qPrintable(QString::fromStdString(config.model + "/" + config.position + "/" + config.cell) + " after " + QString::number(read)));
                QCOMPARE(rows.size(), whole.size());
                for (std::size_t l = 0; l < rows.size(); ++l) {
                    QCOMPARE(rows[l].sizes().vec(), (std::vector<std::int64_t>{1, whole[l].size(1), 1, read}));
                    QVERIFY(torch::allclose(rows[l].reshape({-1}), whole[l][0].select(1, read - 1).narrow(1, 0, read).reshape({-1}), 1e-5, 1e-6));
                }
            }
        }
    }

    void samplesWrittenTogetherEqualEachWrittenAlone()
    {
        // generate --samples: N rows through the one decoding loop, row i seeded with seed + i. Each equals the text
        // written alone with its seed (a context of 12 and 30 tokens: the window is made again twice), for a GPT, an
        // LSTM and a count model.
        torch::manual_seed(6);
        const std::vector<std::string> vocabulary{"a", "b", "c", "d", "e", "f", "g", "h", "i"};
        std::vector<ModelConfig> configs{tiny("gpt", "learned", 9), tiny("char-rnn", "none", 9), tiny("ngram", "none", 9)};
        configs[1].cell = "lstm";
        configs[2].order = 3;
        for (const auto& config : configs) {
            auto model = ModelFactory::createLanguageModel(config);
            if (auto* counts = dynamic_cast<NgramModel*>(model.get()))
                counts->estimate({0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 3, 5, 7, 2, 4, 6, 8, 0});
            TextGeneration::Request request;
            request.prompt = {3, 1, 4};
            request.sampling.tokens = 30;
            request.sampling.seed = 4;
            request.sampling.temperature = 2.0; // many tokens likely: the samples differ
            const auto together = TextGeneration::generateSamples(*model, request, 3, vocabulary, "characters", torch::kCPU);
            QCOMPARE(together.size(), std::size_t(3));
            QVERIFY(together[0].text != together[1].text);
            for (std::size_t i = 0; i < together.size(); ++i) {
                auto alone = request;
                alone.sampling.seed = 4 + i;
                const auto single = TextGeneration::generate(*model, alone, vocabulary, "characters", torch::kCPU);
                const QByteArray whatText = (QString::fromStdString(config.model) + " sample " + QString::number(i)).toUtf8();
                const char* what = whatText.constData();
                QVERIFY2(together[i].text == single.text && together[i].seed == 4 + i, what);
                QCOMPARE(together[i].steps.size(), single.steps.size());
                for (std::size_t t = 0; t < single.steps.size(); ++t) {
                    const auto& a = together[i].steps[t];
                    const auto& b = single.steps[t];
                    QVERIFY2(std::abs(a.probability - b.probability) < 1e-6 && a.contextStart == b.contextStart, what);
                    QCOMPARE(a.attention.size(), b.attention.size());
                    for (std::size_t h = 0; h < a.attention.size(); ++h)
                        for (std::size_t j = 0; j < a.attention[h].size(); ++j)
                            QVERIFY2(std::abs(a.attention[h][j] - b.attention[h][j]) < 1e-5, what);
                }
            }
            try {
                TextGeneration::generateSamples(*model, request, TextGeneration::kMaxSamples + 1, vocabulary, "characters", torch::kCPU);
                QFAIL("no error");
            } catch (const std::invalid_argument& e) {
                QVERIFY2(std::string(e.what()).rfind("samples: must be 1 to 64", 0) == 0, e.what());
            }
        }
    }

    void everyModelOverfitsATinyText()
    {
        const std::string text = "the cat sat on the mat. ";
        const LanguageModelDataset d = datasetOf(text + text + text + text);
        for (const char* name : {"gpt", "char-rnn", "ngram", "ffn-lm"}) {
            TrainConfig config;
            config.dataset = "test";
            config.model = tiny(name, std::string(name) == "gpt" ? "learned" : "none", static_cast<int>(d.vocabulary.size()));
            config.model.dModel = 48;
            config.model.heads = 4;
            config.model.layers = std::string(name) == "char-rnn" ? 1 : 2;
            config.model.order = 8; // a count (or fixed-window) model of order 8 reads 7 characters, which fix the next
            config.model.context = 32;
            config.steps = 400;
            config.evalEvery = 400;
            config.batchSize = 16;
            config.learningRate = 3e-3;
            config.sampleTokens = 0;
            config.threads = 1;
            auto model = ModelFactory::createLanguageModel(config.model);
            if (auto* counts = dynamic_cast<NgramModel*>(model.get()))
                counts->estimate(d.train);
            LanguageModelTask task(model, d, torch::kCPU, config);
            QVERIFY(task.testIsDev()); // one text for every split: the test score is the best dev evaluation's
            if (!dynamic_cast<NgramModel*>(model.get()))
                testing::trainWithAdam(task, config.steps, config.batchSize, config.learningRate);
            const auto dev = task.evaluate(false);
            // Greedy writing from "the cat s" gives the text back exactly.
            TextGeneration::Request request;
            request.prompt = LanguageModelText::encode(LanguageModelText::split("the cat s", "characters"), d.vocabulary, "characters");
            request.sampling.greedy = true;
            request.sampling.tokens = 30;
            const auto written = TextGeneration::generate(*model, request, d.vocabulary, "characters", torch::kCPU);
            QCOMPARE(QString::fromStdString("the cat s" + written.text), QString::fromStdString((text + text).substr(0, 39)));
            QVERIFY2(dev.metrics[3].second > 0.9, qPrintable(QString(name) + " accuracy " + QString::number(dev.metrics[3].second)));
            for (const auto& step : written.steps) // every kept attention row a distribution
                for (const auto& row : step.attention)
                    QVERIFY(std::abs(std::accumulate(row.begin(), row.end(), 0.0) - 1.0) < 1e-4);
        }
    }

    void badTextFilesAreRefusedByName()
    {
        QTemporaryDir dir;
        const QString empty = dir.filePath("empty.txt"), blank = dir.filePath("blank.txt"), binary = dir.filePath("binary.bin"),
                      latin1 = dir.filePath("latin1.txt"), tiny = dir.filePath("tiny.txt");
        writeFile(empty, "");
        writeFile(blank, " \n\n  \n");
        writeFile(binary, std::string("PK\x03\x04\0\0abc", 9));
        writeFile(latin1, "line one\nline two\ncaf\xe9\n");
        writeFile(tiny, "abc");
        for (const auto& [path, words] : std::vector<std::pair<QString, std::string>>{
                 {empty, "is empty"}, {blank, "is empty"}, {binary, ":1: has a NUL byte"}, {latin1, ":3: is not valid UTF-8"},
                 {tiny, "at least 20"}, {dir.filePath("missing.txt"), "no such file"}}) {
            try {
                TextCorpusReader::ownText(path.toStdString(), "characters");
                QFAIL(qPrintable("no error for " + path));
            } catch (const DataError& e) {
                QVERIFY2(std::string(e.what()).find(path.toStdString()) == 0, e.what());
                QVERIFY2(std::string(e.what()).find(words) != std::string::npos, e.what());
            }
        }
        // The reader's split: 90% train, 5% dev, 5% test, in order.
        writeFile(tiny, std::string(200, 'a') + std::string(200, 'b'));
        const auto data = TextCorpusReader::ownText(tiny.toStdString(), "characters");
        QCOMPARE(data.train.size(), std::size_t(360));
        QCOMPARE(data.dev.size(), std::size_t(20));
        QCOMPARE(data.test.size(), std::size_t(20));
    }

    void repeatedSequencesRepeat()
    {
        SyntheticRepeat::Options o;
        o.length = 8;
        o.vocabulary = 7;
        o.trainBlocks = 50;
        const auto d = SyntheticRepeat::generate(o);
        QCOMPARE(d.block, 16);
        QCOMPARE(d.train.size(), std::size_t(800));
        QCOMPARE(d.repeatFrom, 9);
        QCOMPARE(d.repeatTo, 12);
        std::set<int> distances;
        for (int b = 0; b < 50; ++b) {
            const auto* block = d.train.data() + b * 16;
            // The copy starts at L = 8; its source is l = 4..8 positions earlier, the l tokens before L.
            int found = 0;
            for (int l = 8; l >= 4 && !found; --l)
                if (std::equal(block + 8 - l, block + 8, block + 8))
                    found = l;
            QVERIFY(found >= 4);
            distances.insert(found);
            for (int p = d.repeatFrom; p < d.repeatTo; ++p) // the sure copies
                QCOMPARE(block[p], block[p - found]);
        }
        QVERIFY(distances.size() >= 3); // the distance varies: no head finds the copy by position alone
        QCOMPARE(SyntheticRepeat::generate(o).train, d.train); // by seed
    }

    // Attention step by step: a hand-checked head, then every self-attention layer of the lab's models, each query's
    // weights from q, k, the position term, the division and the mask equal to the weights the model's forward used.
    void attentionStepByStepGivesBackTheModelsWeights()
    {
        torch::NoGradGuard noGrad;
        // By hand: one head, d = 2, identity projections, x = e1, e2. q_0 = e1; q_0 . k = (1, 0); / sqrt(2);
        // softmax: w_0 = 1 / (1 + e^(-1/sqrt 2)) = 0.66976, w_1 = 0.33024; output = w_0 e1 + w_1 e2.
        SelfAttentionOptions o = SelfAttentionOptions::transformer(2, 1, "none", 0);
        o.outputProjection = false;
        SelfAttention hand(o);
        for (auto& p : hand->named_parameters())
            p.key().find("bias") != std::string::npos ? p.value().zero_() : p.value().copy_(torch::eye(2));
        const auto x = torch::eye(2).unsqueeze(0);
        const auto mask = torch::ones({1, 2}, torch::kBool);
        const auto s = hand->stepByStep(x, mask, 0, 0);
        QCOMPARE(s.dot, (std::vector<float>{1.0f, 0.0f}));
        QVERIFY(std::abs(s.divisor - std::sqrt(2.0)) < 1e-12);
        QVERIFY(std::abs(s.weights[0] - 0.669761) < 1e-5 && std::abs(s.weights[1] - 0.330239) < 1e-5);
        QVERIFY(std::abs(s.output[0] - s.weights[0]) < 1e-6 && std::abs(s.output[1] - s.weights[1]) < 1e-6);
        QVERIFY(std::abs(s.modelWeights[0] - s.weights[0]) < 1e-6);
        // As the window's step-by-step table shows it: a row per key, the score after the division, the largest weight bold.
        AttentionStepByStep named = s;
        named.tokens = {"a", "b"};
        const TableDocument table = AttentionStepsTable::of(named);
        QCOMPARE(table.rows.size(), std::size_t(2));
        QCOMPARE(table.header[3], std::string("score")); // no position column: the head has no position term
        QCOMPARE(table.rows[0][3].text, std::string("0.7071"));
        QCOMPARE(table.rows[1][3].text, std::string("0.0000"));
        QCOMPARE(table.rows[0][5].text, std::string("0.6698"));
        QVERIFY(table.rows[0][5].bold && !table.rows[1][5].bold);
        QVERIFY(table.caption.find("q . k_j / sqrt(2)") != std::string::npos);
        QVERIFY(AttentionStepsTable::largestDifference(named) < 1e-6);
        QVERIFY(AttentionStepsTable::vectors(named).find("q_i: 1.000 0.000 (2 values)") != std::string::npos);

        // Every model with the lab's self-attention: classifiers, the GPT (every position, unscaled), translation.
        torch::manual_seed(11);
        std::vector<std::pair<std::string, std::function<void()>>> forwards;
        std::vector<std::shared_ptr<torch::nn::Module>> keep;
        auto classifier = [&](const std::string& model, const std::string& position, bool uniform) {
            ModelConfig c = tiny(model, position, 20);
            c.numClasses = 3;
            c.uniformAttention = uniform;
            c.maxLength = 16;
            auto m = ModelFactory::create(c);
            m->eval();
            keep.push_back(m);
            forwards.emplace_back(model + "/" + position + (uniform ? "/uniform" : ""), [m] {
                const auto ids = torch::tensor({{3, 4, 5, 6, 7, 0}}, torch::kLong);
                m->attentionOfFirst(ids, ids.ne(0));
            });
        };
        for (const char* position : {"none", "rpr", "rope", "alibi", "sinusoidal"}) {
            classifier("ssan", position, false);
            classifier("transformer", position, false);
        }
        classifier("ssan", "rpr", true);
        for (const auto& position : gptPositions())
            for (const bool scaled : {true, false}) {
                ModelConfig c = tiny("gpt", position, 9);
                c.scaled = scaled;
                auto m = ModelFactory::createLanguageModel(c);
                m->eval();
                keep.push_back(m);
                forwards.emplace_back("gpt/" + position + (scaled ? "" : "/unscaled"), [m] { m->forward(torch::tensor({{1, 2, 3, 4, 5, 6, 7}}, torch::kLong)); });
            }
        for (const char* position : {"sinusoidal", "rpr", "alibi"}) {
            ModelConfig c = tiny("transformer-seq2seq", position, 12);
            c.targetVocabularySize = 10;
            c.maxLength = 32;
            auto m = ModelFactory::createTranslator(c);
            m->eval();
            keep.push_back(m);
            forwards.emplace_back(std::string("transformer-seq2seq/") + position, [m] {
                const auto source = torch::tensor({{4, 5, 6, 7, 0}}, torch::kLong);
                m->forced(source, source.ne(0), torch::tensor({{2, 4, 5, 6}}, torch::kLong));
            });
        }
        for (const auto& [name, forward] : forwards) {
            AttentionInputRecorder recorder;
            forward();
            QVERIFY2(!recorder.calls().empty(), name.c_str());
            const auto calls = recorder.calls();
            for (const auto& call : calls) {
                const int length = call.length;
                for (int head = 0; head < call.heads; ++head)
                    for (int query = 0; query < length; ++query) {
                        const auto st = call.steps(head, query);
                        for (int j = 0; j < length; ++j) {
                            QVERIFY2(std::abs(st.weights[j] - st.modelWeights[j]) < 1e-6, qPrintable(QString::fromStdString(name)));
                            if (st.masked[j])
                                QCOMPARE(st.weights[j], 0.0f);
                        }
                        if (!st.uniform) // the score is what the steps say it is
                            for (int j = 0; j < length; ++j)
                                if (!st.masked[j]) {
                                    const double alibi = st.position == "alibi" ? st.positionTerm[j] : 0.0;
                                    const double rpr = st.position == "rpr" ? st.positionTerm[j] : 0.0;
                                    QVERIFY(std::abs(st.scores[j] - ((st.dot[j] + rpr) / st.divisor + alibi)) < 1e-5);
                                }
                        QCOMPARE(st.divisor == 1.0, !st.scaled);
                    }
            }
        }
    }

    // The trainer's path: a run into the store, its sample at each evaluation, its checkpoint written from again.
    void aRunStoresItsSamplesAndWritesAgain()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        SyntheticRepeat::Options o;
        o.length = 8;
        o.vocabulary = 8;
        o.trainBlocks = 400;
        o.devBlocks = o.testBlocks = 20;
        TrainConfig config;
        config.dataset = "synthetic-repeat";
        config.model = tiny("gpt", "learned", 0);
        config.model.context = 16;
        config.steps = 60;
        config.evalEvery = 30;
        config.batchSize = 16;
        config.sampleTokens = 20;
        config.threads = 1;
        config.checkpointDir = dir.filePath("checkpoints").toStdString();
        StoreObserver observer(store);
        CancelToken cancel;
        const auto summary = Trainer(config).run(SyntheticRepeat::generate(o), observer, cancel);
        QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
        QVERIFY(summary.languageModel);
        QVERIFY(summary.testLoss > 0 && std::abs(summary.testBitsPerToken - summary.testLoss / std::log(2.0)) < 1e-9);
        QVERIFY(std::abs(summary.testPerplexity - std::exp(summary.testLoss)) < 1e-6);
        QVERIFY(summary.testLoss != summary.bestDevLoss); // its own test blocks, scored apart from dev's
        observer.flush();
        const auto run = store.run(observer.runId());
        QVERIFY(run);
        const RunSummary back = run->summary();
        QVERIFY(back.languageModel);
        QCOMPARE(back.testLoss, summary.testLoss);
        const auto snapshots = store.attentionSteps(observer.runId());
        QCOMPARE(snapshots.size(), std::size_t(2));
        const auto snapshot = store.attentionNearest(observer.runId(), snapshots.back());
        QVERIFY(snapshot && !snapshot->sample.empty());
        QCOMPARE(snapshot->maps.size(), std::size_t(4)); // 2 layers x 2 heads over the sample's first tokens
        QVERIFY(QString::fromStdString(snapshot->sample).startsWith("s1 s2 s3"));
        // Metrics of the repeated blocks: the two halves' losses.
        bool repeat = false;
        for (const auto& m : store.metrics(observer.runId()))
            repeat = repeat || m.name == "repeat_loss";
        QVERIFY(repeat);
        const auto checkpoints = store.checkpoints(observer.runId());
        QVERIFY(!checkpoints.empty());
        const TextGenerator generator(checkpoints.front());
        SamplingSettings s;
        s.tokens = 12;
        s.seed = 3;
        const auto a = generator.generate("s1 s2 s3", s), b = generator.generate("s1 s2 s3", s);
        QCOMPARE(a.text, b.text);
        QCOMPARE(a.steps.size(), std::size_t(12));
        try {
            generator.generate("s1 zebra", s);
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("prompt: word 'zebra' (token 2)") == 0, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestLanguageModel)
#include "test_language_model.moc"
