// Every registered model with every position technique it takes: shapes, gradients to every parameter,
// overfitting a tiny batch, and padding invariance.
#include "core/config/ModelConfig.h"
#include "core/config/Registry.h"
#include "core/config/TrainConfig.h"
#include "core/nn/layers/DropoutMask.h"
#include "core/nn/layers/EmbeddingLookup.h"
#include "core/nn/models/ModelFactory.h"

#include <QtTest/QtTest>

using namespace attnlab;

namespace {

struct Case {
    std::string model, position;
    std::string name() const { return model + "+" + position; }
};

std::vector<Case> allCases()
{
    std::vector<Case> cases;
    for (const auto& m : Registry::models())
        if (m.servesTask(TaskKind::Classification)) // time series: test_regression; translation: test_translation;
                                                    // language models: test_language_model
            for (const auto& p : m.positions)
                cases.push_back({m.id, p});
    return cases;
}

ModelConfig tinyConfig(const Case& c)
{
    ModelConfig config;
    config.model = c.model;
    config.position = c.position;
    config.dModel = 16;
    config.heads = (c.model == "essan" || c.model == "transformer") ? 2 : 1;
    config.rprClip = 2;
    config.ffHidden = 12;
    config.ffnHidden = 24;
    config.filters = 6;
    config.maxLength = 16;
    config.dropoutKeep = 1.0; // deterministic forward passes for exact comparisons
    config.vocabularySize = 30;
    config.numClasses = 3;
    return config;
}

torch::Tensor ids(std::vector<std::vector<int64_t>> rows, int64_t length)
{
    auto t = torch::zeros({static_cast<int64_t>(rows.size()), length}, torch::kLong);
    for (std::size_t b = 0; b < rows.size(); ++b)
        for (std::size_t i = 0; i < rows[b].size(); ++i)
            t[b][i] = rows[b][i];
    return t;
}

} // namespace

class TestModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void registryCoversTheThesisModels()
    {
        for (const char* id : {"ssan", "essan", "transformer", "rnn", "lstm", "bilstm", "gru", "rnn-attention", "cnn", "bow", "ave",
                               "narx", "encdec", "attn-rnn", "darnn"})
            QVERIFY2(Registry::find(Registry::models(), id), id);
        for (const char* id : {"none", "sinusoidal", "learned", "rpr", "rope", "alibi"})
            QVERIFY2(Registry::find(Registry::positions(), id), id);
        for (const char* id : {"ssan", "essan", "transformer"})
            QCOMPARE(Registry::find(Registry::models(), id)->positions.size(), std::size_t(6));
    }

    // The registry is the one extension point: every model it lists is built for each task it declares and
    // for no other, and a position technique it declares is one the registry knows.
    void everyModelSpecHasItsImplementations()
    {
        for (const auto& m : Registry::models()) {
            for (TaskKind task :
                 {TaskKind::Classification, TaskKind::Regression, TaskKind::Translation, TaskKind::LanguageModel})
                QVERIFY2(ModelFactory::implements(m.id, task) == m.servesTask(task),
                         (m.id + " " + taskKindId(task)).c_str());
            for (const auto& p : m.positions)
                QVERIFY2(Registry::find(Registry::positions(), p), (m.id + " " + p).c_str());
            QCOMPARE(Registry::takesPosition(m.id), m.positions.size() > 1 || m.positions.front() != "none");
        }
        QVERIFY(!ModelFactory::implements("gpt", TaskKind::Classification));
        QVERIFY(ModelFactory::implements("essan", TaskKind::Regression) &&
                ModelFactory::implements("essan", TaskKind::Classification));
    }

    // The declared ability is what the built model does: a classifier with attention records maps or pooling
    // weights on a sentence (what explain and the Explorer show), one without records none.
    void attentionAbilityIsWhatTheModelRecords()
    {
        int withAttention = 0;
        for (const auto& m : Registry::models()) {
            if (!m.servesTask(TaskKind::Classification))
                continue;
            torch::manual_seed(1);
            auto model = ModelFactory::create(tinyConfig({m.id, m.positions.front()}));
            model->eval();
            model->setRecordAttention(true);
            torch::NoGradGuard noGrad;
            auto x = ids({{2, 3, 4, 5, 6}}, 5);
            model->forward(x, x.ne(0));
            const bool recorded = !model->recordedAttention().empty() || model->recordedPooling().defined();
            QVERIFY2(recorded == m.can.attention, m.id.c_str());
            withAttention += m.can.attention;
        }
        QCOMPARE(withAttention, 5); // ssan, essan, transformer, rnn-attention, minilm
    }

    // A model of another task is refused by the configuration check, naming both kinds, before a run exists.
    void aModelOfAnotherTaskIsRefusedNamingBothKinds()
    {
        TrainConfig c;
        c.dataset = "synthetic-sentiment";
        c.model.model = "gpt";
        c.model.position = "learned";
        QCOMPARE(c.validate(),
                 std::string("model: 'gpt' is a language-model model; dataset 'synthetic-sentiment' is a "
                             "classification dataset (models for it: ssan, essan, transformer, rnn, lstm, bilstm, gru, "
                             "rnn-attention, cnn, kim-cnn, cnn-max-over-time, minilm, bow, ave)"));
        c.dataset = "synthetic-lag";
        c.model.model = "essan";
        c.model.position = "rpr";
        QCOMPARE(c.validate(), std::string());
        c.model.model = "lstm";
        c.model.position = "none";
        QVERIFY(
            c.validate().rfind(
                "model: 'lstm' is a classification model; dataset 'synthetic-lag' is a time-series regression dataset",
                0) == 0);
        // The model's own check, from the sizes the data set: a language model given classes is a classifier's place.
        ModelConfig gpt;
        gpt.model = "gpt";
        gpt.position = "learned";
        gpt.vocabularySize = 10;
        gpt.numClasses = 2;
        QVERIFY(gpt.validate().rfind("model: 'gpt' is a language-model model; this dataset needs classification", 0) ==
                0);
        gpt.numClasses = 0;
        QCOMPARE(gpt.validate(), std::string());
    }

    void shapesAndGradientsReachEveryParameter()
    {
        for (const auto& c : allCases()) {
            torch::manual_seed(1);
            auto model = ModelFactory::create(tinyConfig(c));
            auto x = ids({{2, 3, 4, 5, 6}, {7, 8, 9}}, 5);
            auto mask = x.ne(0);
            auto logits = model->forward(x, mask);
            QVERIFY2(logits.sizes() == torch::IntArrayRef({2, 3}), c.name().c_str());
            torch::nn::functional::cross_entropy(logits, torch::tensor({0L, 2L})).backward();
            for (const auto& p : model->named_parameters()) {
                if (!p.value().requires_grad())
                    continue; // switched off by design: minilm's pooler under mean pooling
                const auto label = c.name() + " " + p.key();
                QVERIFY2(p.value().grad().defined(), label.c_str());
                QVERIFY2(p.value().grad().abs().sum().item<double>() > 0.0, label.c_str());
            }
        }
    }

    void overfitsATinyBatch()
    {
        for (const auto& c : allCases()) {
            torch::manual_seed(2);
            auto model = ModelFactory::create(tinyConfig(c));
            // Rows 0 and 1 are the same bag of words in two orders (first two tokens swapped, not reversed:
            // symmetric ALiBi cannot tell a sequence from its mirror image): only models that see order can fit
            // both (self-attention without position information, Bow and Ave provably cannot).
            // ALiBi counts as order-blind here: with one or two heads its slopes (2^-8, 2^-4) move the weights
            // by well under 1%, too little to separate the swap in a few hundred steps.
            const bool san = c.model == "ssan" || c.model == "essan" || c.model == "transformer";
            const bool seesOrder = !((san && (c.position == "none" || c.position == "alibi")) || c.model == "bow" ||
                                     c.model == "ave");
            auto x = seesOrder ? ids({{2, 3, 4, 5}, {3, 2, 4, 5}, {6, 7}, {8, 9, 10, 11, 12}}, 5)
                               : ids({{2, 3, 4, 5}, {5, 4, 13}, {6, 7}, {8, 9, 10, 11, 12}}, 5);
            auto mask = x.ne(0);
            auto labels = torch::tensor({0L, 1L, 2L, 1L});
            torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(c.model == "bow" ? 0.1 : 0.02));
            double loss = 0;
            for (int step = 0; step < 2000 && (step == 0 || loss > 0.01); ++step) {
                optimizer.zero_grad();
                auto l = torch::nn::functional::cross_entropy(model->forward(x, mask), labels);
                l.backward();
                optimizer.step();
                loss = l.item<double>();
            }
            QVERIFY2(loss < 0.05, (c.name() + " loss " + std::to_string(loss)).c_str());
        }
    }

    void paddingNeverChangesAnOutput()
    {
        for (const auto& c : allCases()) {
            torch::manual_seed(3);
            auto model = ModelFactory::create(tinyConfig(c));
            model->eval();
            torch::NoGradGuard noGrad;
            auto alone = ids({{2, 3, 4}}, 3);
            auto batch = ids({{2, 3, 4}, {5, 6, 7, 8, 9, 10, 11}}, 7);
            auto a = model->forward(alone, alone.ne(0))[0];
            auto b = model->forward(batch, batch.ne(0))[0];
            QVERIFY2(torch::allclose(a, b, 1e-5, 1e-5), (c.name() + ": alone vs in a padded batch").c_str());
            // The training loop's form: the rows' lengths from the host (TensorBatch::lengths), shorter row first.
            const auto h = model->forward(batch, batch.ne(0), torch::tensor({3L, 7L}));
            QVERIFY2(torch::allclose(model->forward(batch, batch.ne(0)), h, 1e-6, 1e-6), (c.name() + ": host lengths").c_str());
            auto garbage = batch.clone();
            garbage[0][5] = 20; // content in the padded slots, still masked out
            garbage[0][6] = 21;
            auto g = model->forward(garbage, batch.ne(0))[0];
            QVERIFY2(torch::allclose(b, g, 1e-6, 1e-6), (c.name() + ": padded content").c_str());
        }
    }

    void attentionIsAvailableOnRequestOnly()
    {
        for (const auto& c : allCases()) {
            auto model = ModelFactory::create(tinyConfig(c));
            auto x = ids({{2, 3, 4, 5}}, 4);
            model->forward(x, x.ne(0));
            QVERIFY2(model->recordedAttention().empty(), c.name().c_str());
            std::vector<float> pooling;
            const auto maps = model->attentionOfFirst(x, x.ne(0), &pooling);
            const bool selfAttention = c.model == "ssan" || c.model == "essan" || c.model == "transformer" || c.model == "minilm";
            if (selfAttention) {
                const int heads = tinyConfig(c).heads;
                QCOMPARE(static_cast<int>(maps.size()), heads); // one layer
                QCOMPARE(maps[0].size, 4);
            } else {
                QVERIFY(maps.empty());
            }
            // What the views are told (Registry::hasAttention) is what the model gives.
            QCOMPARE(Registry::hasAttention(c.model), !maps.empty() || !pooling.empty());
            if (c.model == "essan" || c.model == "rnn-attention") {
                QCOMPARE(pooling.size(), std::size_t(4));
                double sum = 0;
                for (float w : pooling) sum += w;
                QVERIFY2(std::abs(sum - 1.0) < 1e-5, c.name().c_str());
            }
        }
    }

    // A frozen pretrained encoder keeps each sentence's vector (BertClassifier): what the cache returns is what
    // the encoder computes, for rows seen before and new ones in the same batch.
    void frozenEncoderCacheGivesTheEncodersOutput()
    {
        ModelConfig config = tinyConfig({"minilm", "learned"});
        config.frozenEncoder = true;
        torch::manual_seed(4);
        auto model = ModelFactory::create(config);
        model->eval();
        torch::NoGradGuard noGrad;
        auto first = ids({{2, 3, 4}, {5, 6, 7, 8}}, 4);
        auto mixed = ids({{5, 6, 7, 8, 0}, {9, 10, 11, 12, 13}}, 5); // one row seen (padded wider), one new
        const auto a = model->forward(first, first.ne(0));
        const auto b = model->forward(mixed, mixed.ne(0));
        torch::Tensor direct;
        model->attentionOfFirst(mixed, mixed.ne(0), nullptr, &direct); // recording: the encoder itself
        QVERIFY(torch::allclose(b, direct, 1e-5, 1e-6));
        QVERIFY(torch::allclose(b[0], a[1], 1e-5, 1e-6));
        model->train(); // the head's dropout trains; the frozen encoder stays as it is
        const auto children = model->named_children();
        QVERIFY(children.contains("encoder") && children["encoder"]->is_training() == false);
    }

    void invalidCombinationsAreRejectedBeforeTraining()
    {
        auto config = tinyConfig({"transformer", "rpr"});
        config.heads = 3; // 16 % 3 != 0
        QVERIFY(QString::fromStdString(config.validate()).startsWith("heads: 3 heads do not divide d_model 16"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ModelFactory::create(config));
        config = tinyConfig({"cnn", "rpr"});
        QVERIFY(QString::fromStdString(config.validate()).contains("does not apply to model 'cnn'"));
        config = tinyConfig({"lstm", "none"});
        config.pooling = "attention";
        QVERIFY(QString::fromStdString(config.validate()).startsWith("pooling: 'attention' does not apply"));
        config = tinyConfig({"essan", "rope"});
        config.dModel = 18;
        config.heads = 2; // head size 9 is odd
        QVERIFY(QString::fromStdString(config.validate()).contains("rope"));
        config = tinyConfig({"bow", "none"});
        config.dropoutPoints = "input";
        QCOMPARE(QString::fromStdString(config.validate()), QString("dropout_points: model 'bow' has no 'input' dropout point (it has none)"));
        config = tinyConfig({"ssan", "rpr"});
        config.dropoutPoints = "input,attention";
        QVERIFY(QString::fromStdString(config.validate()).startsWith("dropout_points: unknown point 'attention'"));
        config.dropoutPoints = "";
        config.dropoutHiddenKeep = 1.5;
        QVERIFY(QString::fromStdString(config.validate()).startsWith("dropout_hidden_keep: a keep probability must be in (0, 1]"));
    }

    // Dropout points and rates: the model's defaults from the registry, per-point overrides, and a
    // switched-off point really leaving a training-mode forward deterministic.
    void dropoutPointsAndRatesAreEachItsOwnSetting()
    {
        ModelConfig lstm = tinyConfig({"lstm", "none"});
        lstm.dropoutKeep = 0.8;
        QCOMPARE(lstm.keepAt("input"), 0.8); // Barnes et al.: dropout on the embeddings only
        QCOMPARE(lstm.keepAt("hidden"), 1.0);
        QCOMPARE(lstm.keepAt("output"), 1.0);
        ModelConfig ssan = tinyConfig({"ssan", "rpr"});
        ssan.dropoutKeep = 0.8;
        ssan.dropoutOutputKeep = 0.5;
        QCOMPARE(ssan.keepAt("input"), 0.8); // thesis: inputs, attention outputs and the sentence vector
        QCOMPARE(ssan.keepAt("hidden"), 0.8);
        QCOMPARE(ssan.keepAt("output"), 0.5);
        ssan.dropoutPoints = "output";
        QCOMPARE(ssan.keepAt("input"), 1.0);
        QCOMPARE(ssan.keepAt("output"), 0.5);

        auto x = ids({{2, 3, 4, 5, 6}, {7, 8, 9}}, 5);
        auto mask = x.ne(0);
        for (const auto& c : allCases()) {
            if (c.model == "bow" || c.model == "minilm")
                continue; // no dropout point at all; BERT's own fixed 0.1 (BertClassifier)
            ModelConfig config = tinyConfig(c);
            config.dropoutKeep = 0.5;
            config.dropoutPoints = "input";
            config.dropoutInputKeep = 1.0; // the only point on, keeping everything
            torch::manual_seed(3);
            auto model = ModelFactory::create(config);
            model->train();
            const auto a = model->forward(x, mask), b = model->forward(x, mask);
            QVERIFY2(torch::equal(a, b), c.name().c_str());
            config.dropoutInputKeep = 0.5;
            torch::manual_seed(3);
            auto dropping = ModelFactory::create(config);
            dropping->train();
            QVERIFY2(!torch::equal(dropping->forward(x, mask), dropping->forward(x, mask)), c.name().c_str());
            dropping->eval(); // evaluation never drops
            QVERIFY2(torch::equal(dropping->forward(x, mask), dropping->forward(x, mask)), c.name().c_str());
        }
    }

    // The CPU dropout mask (DropoutMask): element i kept when the top 32 bits of SplitMix64's (i + 1)-th output
    // from the seed fall below keep * 2^32. Seed 0's first two outputs are SplitMix64's published ones,
    // 0xE220A8397B1DCDAF and 0x6E789E6AA1B965F4: kept at keep 0.9 (0xE220A839 < 0.9 * 2^32), dropped at 0.8, the
    // second kept at 0.5. The same seed gives the same mask whatever the thread count, the share kept is keep,
    // and the gradient is the mask.
    void dropoutMaskIsSplitMix64sDraw()
    {
        const auto two = torch::ones({2});
        QVERIFY(torch::equal(DropoutMask::draw(two, 0.9, 0), torch::tensor({1.0f / 0.9f, 1.0f / 0.9f})));
        QVERIFY(torch::equal(DropoutMask::draw(two, 0.8, 0), torch::tensor({0.0f, 1.0f / 0.8f})));
        QVERIFY(torch::equal(DropoutMask::draw(two, 0.5, 0), torch::tensor({0.0f, 2.0f})));
        QVERIFY(torch::equal(DropoutMask::draw(two, 1.0, 0), torch::ones({2}))); // keep 1: nothing dropped

        const auto big = torch::ones({1000, 1000});
        const int threads = torch::get_num_threads();
        torch::set_num_threads(1);
        const auto one = DropoutMask::draw(big, 0.7, 12345);
        torch::set_num_threads(2);
        const auto both = DropoutMask::draw(big, 0.7, 12345);
        torch::set_num_threads(threads);
        QVERIFY(torch::equal(one, both));
        const double kept = one.ne(0).to(torch::kDouble).mean().item<double>();
        QVERIFY2(std::abs(kept - 0.7) < 0.002, qPrintable(QString::number(kept))); // 1e6 draws: sd 0.00046
        QVERIFY(!torch::equal(one, DropoutMask::draw(big, 0.7, 12346)));

        torch::manual_seed(5); // the seed comes from LibTorch's generator: manual_seed fixes the masks
        auto x = torch::randn({64, 64}, torch::kDouble).requires_grad_(true);
        torch::manual_seed(5);
        (void)torch::randn({64, 64}, torch::kDouble);
        const auto first = DropoutMask::apply(x, 0.3, true);
        torch::manual_seed(5);
        (void)torch::randn({64, 64}, torch::kDouble);
        QVERIFY(torch::equal(first, DropoutMask::apply(x, 0.3, true)));
        QVERIFY(torch::equal(DropoutMask::apply(x, 0.3, false), x)); // not training: untouched
        const auto gradient = torch::autograd::grad({first.sum()}, {x})[0];
        QVERIFY(torch::allclose(gradient * x, first, 0.0, 1e-12)); // d(sum x m)/dx = m
    }

    // The thesis' CNN by hand: 1-d word vectors equal to their ids, every convolution weight 1 (a window's sum),
    // the ReLU layer summing its inputs, the softmax layer's rows 1 and 2. n = 5 tokens.
    void thesisCnnPadsInFrontAndPoolsPairs()
    {
        ModelConfig config;
        config.model = "cnn";
        config.position = "none";
        config.dModel = 1;
        config.filters = 1;
        config.ffHidden = 1;
        config.inputLength = 5;
        config.dropoutPoints = "none";
        config.vocabularySize = 8;
        config.numClasses = 2;
        auto model = ModelFactory::create(config);
        model->eval();
        torch::NoGradGuard noGrad;
        for (auto& p : model->named_parameters()) {
            if (p.key() == "embedding.weight")
                p.value().copy_(torch::arange(8, torch::kFloat).view({8, 1}));
            else if (p.key() == "output.weight")
                p.value().copy_(torch::tensor({{1.0f}, {2.0f}}));
            else if (p.key().find("weight") != std::string::npos)
                p.value().fill_(1.0f);
            else
                p.value().zero_();
        }
        // [1 2 3] -> M = [0 0 1 2 3]: widths 2 [0 1 3 5] -> pooled [1 5]; 3 [1 3 6] -> [3]; 4 [3 6] -> [6]; sum 15.
        const auto shortOne = ids({{1, 2, 3}, {1, 2, 3, 4, 5, 6, 7}}, 7);
        const auto logits = model->forward(shortOne, shortOne.ne(0));
        QVERIFY(torch::allclose(logits[0], torch::tensor({15.0f, 30.0f})));
        // [1 .. 7] keeps its last five, [3 4 5 6 7]: widths 2 [7 9 11 13] -> [9 13]; 3 [12 15 18] -> [15];
        // 4 [18 22] -> [22]; sum 59.
        QVERIFY(torch::allclose(logits[1], torch::tensor({59.0f, 118.0f})));
    }

    // EmbeddingLookup: the rows of torch::nn::Embedding, and a backward that adds each id's gradient
    // row into the table's .grad. Looked up once in the graph (the classifiers), after zero_grad (the trainer's
    // step) and with no .grad yet (the first step), every gradient is bit for bit LibTorch's - repeated ids and the
    // padding id, float and double. Looked up twice (a decoder's steps) or added to a .grad already there, it sums
    // the same terms in another order: within rounding. Without autograd (evaluation) it is LibTorch's lookup.
    void embeddingLookupAddsIntoTheTableGradient()
    {
        const auto ids = torch::tensor({3, 9, 3, 0, 49, 9, 3, 0, 17, 1, 3, 0}, torch::kLong).view({3, 4});
        const auto again = torch::tensor({{9, 9, 2}}, torch::kLong);
        for (const auto type : {torch::kFloat, torch::kDouble}) {
            torch::manual_seed(3);
            torch::nn::Embedding ours(torch::nn::EmbeddingOptions(50, 7).padding_idx(0));
            torch::nn::Embedding theirs(torch::nn::EmbeddingOptions(50, 7).padding_idx(0));
            ours->to(type);
            theirs->to(type);
            {
                torch::NoGradGuard noGrad;
                theirs->weight.copy_(ours->weight);
            }
            const auto mix = torch::randn({3, 4, 7}, type);
            const auto mixAgain = torch::randn({1, 3, 7}, type);
            const double tolerance = type == torch::kFloat ? 1e-5 : 1e-12;
            for (int round = 0; round < 4; ++round) {
                // 0: no .grad yet; 1: after zero_grad; 2: added to the .grad there; 3: zeroed, the table used twice
                if (round == 1 || round == 3) {
                    ours->zero_grad(/*set_to_none=*/false);
                    theirs->zero_grad(/*set_to_none=*/false);
                }
                const auto a = EmbeddingLookup::apply(ours, ids);
                QVERIFY(torch::equal(a, theirs(ids)));
                QCOMPARE(a.sizes().vec(), (std::vector<std::int64_t>{3, 4, 7}));
                QVERIFY2(QString::fromStdString(a.grad_fn()->name()).contains(QStringLiteral("EmbeddingLookup")),
                         a.grad_fn()->name().c_str()); // ours, not LibTorch's EmbeddingBackward
                if (round < 3) {
                    (a * mix).sum().backward();
                    (theirs(ids) * mix).sum().backward();
                } else {
                    ((a * mix).sum() + (EmbeddingLookup::apply(ours, again) * mixAgain).pow(2).sum()).backward();
                    ((theirs(ids) * mix).sum() + (theirs(again) * mixAgain).pow(2).sum()).backward();
                }
                if (round < 2)
                    QVERIFY2(torch::equal(ours->weight.grad(), theirs->weight.grad()), qPrintable(QString::number(round)));
                else
                    QVERIFY(torch::allclose(ours->weight.grad(), theirs->weight.grad(), 0.0, tolerance));
                QVERIFY(torch::equal(ours->weight.grad()[0], torch::zeros({7}, type))); // the padding row: none
                QVERIFY(torch::equal(ours->weight.grad()[5], torch::zeros({7}, type))); // an id not looked up: none
                QVERIFY(ours->weight.grad()[3].abs().sum().item<double>() > 0.0);
            }
            QVERIFY(ours->weight.grad()[2].abs().sum().item<double>() > 0.0); // looked up by the second use only
        }
        torch::nn::Embedding table(torch::nn::EmbeddingOptions(10, 4));
        torch::NoGradGuard noGrad;
        const auto looked = EmbeddingLookup::apply(table, ids.clamp_max(9));
        QVERIFY(looked.grad_fn() == nullptr);
        QVERIFY(torch::equal(looked, table(ids.clamp_max(9))));
    }
};

QTEST_APPLESS_MAIN(TestModels)
#include "test_models.moc"
