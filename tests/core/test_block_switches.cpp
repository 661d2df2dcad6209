// Residual connections and LayerNorm switched (ModelConfig::layerNorm, ::residual): the parameters each variant
// has, the GPT block's output recomputed by hand from its own weights for every combination, the cached step equal to
// the window's row, the Transformer classifier by hand without residuals, the translation Transformer's encoder by
// hand and its decoding steps against its parallel pass, and the settings refused where they mean nothing.
#include "core/config/ModelConfig.h"
#include "core/config/TrainConfig.h"
#include "core/nn/layers/TransformerBlock.h"
#include "core/nn/models/GptModel.h"
#include "core/nn/models/ModelFactory.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace attnlab;

namespace {

std::int64_t parameterCount(torch::nn::Module& m)
{
    std::int64_t n = 0;
    for (const auto& p : m.parameters())
        n += p.numel();
    return n;
}

std::shared_ptr<torch::nn::Module> childOf(torch::nn::Module& m, const std::string& name)
{
    for (const auto& item : m.named_children())
        if (item.key() == name)
            return item.value();
    return nullptr;
}

// LayerNorm by its definition: (v - mean) / sqrt(var + 1e-5) * gamma + beta over the last dimension (biased var).
torch::Tensor layerNorm(const torch::Tensor& v, torch::nn::Module& norm)
{
    const auto mean = v.mean(-1, true);
    const auto var = (v - mean).pow(2).mean(-1, true);
    return (v - mean) / torch::sqrt(var + 1e-5) * norm.named_parameters()["weight"] + norm.named_parameters()["bias"];
}

torch::Tensor linear(const torch::Tensor& v, torch::nn::Module& layer)
{
    return torch::matmul(v, layer.named_parameters()["weight"].t()) + layer.named_parameters()["bias"];
}

torch::Tensor geluByHand(const torch::Tensor& v) { return 0.5 * v * (1.0 + torch::erf(v / std::sqrt(2.0))); }

ModelConfig classifier(const std::string& layerNormSetting, bool residual)
{
    ModelConfig m;
    m.model = "transformer";
    m.position = "none";
    m.dModel = 8;
    m.layers = 2;
    m.heads = 2;
    m.ffnHidden = 16;
    m.dropoutKeep = 1.0;
    m.vocabularySize = 20;
    m.numClasses = 3;
    m.layerNorm = layerNormSetting;
    m.residual = residual;
    return m;
}

ModelConfig gpt(const std::string& layerNormSetting, bool residual)
{
    ModelConfig m;
    m.model = "gpt";
    m.position = "learned";
    m.dModel = 8;
    m.layers = 3;
    m.heads = 2;
    m.context = 6;
    m.dropoutKeep = 1.0;
    m.vocabularySize = 11;
    m.layerNorm = layerNormSetting;
    m.residual = residual;
    return m;
}

ModelConfig translator(const std::string& layerNormSetting, bool residual, int layers)
{
    ModelConfig m;
    m.model = "transformer-seq2seq";
    m.position = "none";
    m.dModel = 8;
    m.layers = layers;
    m.heads = 2;
    m.ffnHidden = 12;
    m.dropoutPoints = "none";
    m.vocabularySize = 12;
    m.targetVocabularySize = 10;
    m.layerNorm = layerNormSetting;
    m.residual = residual;
    return m;
}

} // namespace

class TestBlockSwitches : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A LayerNorm has 2d parameters. The classifier's post-LN (its default) has two a layer; pre-LN the same and one
    // more before the pooling; none, no LayerNorm. The GPT's pre-LN (its default) has two a block and a final one;
    // post-LN leaves out the final one. Residuals have no parameters.
    void parameterCountsFollowTheSwitches()
    {
        const std::int64_t ln = 2 * 8;
        auto count = [](const ModelConfig& c) {
            auto m = ModelFactory::create(c);
            return parameterCount(*m);
        };
        const auto post = count(classifier("", true));
        QCOMPARE(count(classifier("post", true)), post);
        QCOMPARE(count(classifier("pre", true)), post + ln);
        QCOMPARE(count(classifier("none", true)), post - 2 * 2 * ln);
        QCOMPARE(count(classifier("", false)), post);
        auto countLm = [](const ModelConfig& c) {
            auto m = ModelFactory::createLanguageModel(c);
            return parameterCount(*m);
        };
        const auto pre = countLm(gpt("", true));
        QCOMPARE(countLm(gpt("pre", false)), pre);
        QCOMPARE(countLm(gpt("post", true)), pre - ln);
        QCOMPARE(countLm(gpt("none", true)), pre - 3 * 2 * ln - ln);
        QVERIFY(QString::fromStdString(ModelFactory::create(classifier("none", false))->summary()).endsWith("no LayerNorm, no residuals"));
    }

    // Every combination of the block, against its formula computed here from the block's own weights (LayerNorms
    // given random gains and biases so that they matter), and its cached step against forward's last row.
    void theBlockIsItsFormula()
    {
        for (const std::string norm : {"pre", "post", "none"})
            for (const bool residual : {true, false}) {
                torch::manual_seed(7);
                TransformerBlockOptions o;
                o.attention = SelfAttentionOptions::transformer(8, 2, "none", 4);
                o.attention.causal = true;
                o.ffnHidden = 12;
                o.layerNorm = norm;
                o.residual = residual;
                TransformerBlock block(o);
                block->eval();
                {
                    torch::NoGradGuard noGrad;
                    for (auto& p : block->named_parameters())
                        if (p.key().find("norm") != std::string::npos)
                            p.value().uniform_(0.5, 1.5);
                }
                const auto x = torch::randn({2, 5, 8});
                const auto mask = torch::ones({2, 5}, torch::kBool);
                torch::NoGradGuard noGrad;
                const auto got = block->forward(x, mask);

                auto attention = std::dynamic_pointer_cast<SelfAttentionImpl>(childOf(*block, "attention"));
                auto norm1 = childOf(*block, "norm1"), norm2 = childOf(*block, "norm2");
                QCOMPARE(norm1 == nullptr, norm == "none");
                auto sub = [&](const torch::Tensor& v, const std::shared_ptr<torch::nn::Module>& ln, auto f) {
                    auto branch = f(norm == "pre" ? layerNorm(v, *ln) : v);
                    auto y = residual ? v + branch : branch;
                    return norm == "post" ? layerNorm(y, *ln) : y;
                };
                const auto y = sub(x, norm1, [&](const torch::Tensor& h) { return attention->forward(h, mask).output; });
                const auto expected = sub(y, norm2, [&](const torch::Tensor& h) {
                    return linear(geluByHand(linear(h, *childOf(*block, "ffn_in"))), *childOf(*block, "ffn_out"));
                });
                QVERIFY2(torch::allclose(got, expected, 1e-5, 1e-5), (norm + (residual ? " residual" : " no residual")).c_str());

                // The cache: five steps give forward's rows.
                auto keys = torch::zeros({2, 2, 0, 4}), values = torch::zeros({2, 2, 0, 4});
                for (int t = 0; t < 5; ++t) {
                    const auto row = block->step(x.narrow(1, t, 1), keys, values);
                    QVERIFY2(torch::allclose(row, got.narrow(1, t, 1), 1e-5, 1e-5), (norm + " step " + std::to_string(t)).c_str());
                }
            }
    }

    // The classifier, pre-LN without residuals, one layer, mean pooling: embed -> LN -> attention -> LN -> FFN ->
    // final LN -> mean over the real tokens -> output, from its own modules.
    void theClassifierWithoutResidualsByHand()
    {
        auto c = classifier("pre", false);
        c.layers = 1;
        torch::manual_seed(3);
        auto model = ModelFactory::create(c);
        model->eval();
        torch::NoGradGuard noGrad;
        for (auto& p : model->named_parameters())
            if (p.key().find("norm") != std::string::npos)
                p.value().uniform_(0.5, 1.5);
        const auto ids = torch::tensor({{3, 4, 5, 6}, {7, 8, 0, 0}}, torch::kLong);
        const auto mask = ids.ne(0);
        const auto got = model->forward(ids, mask);
        auto attention = std::dynamic_pointer_cast<SelfAttentionImpl>(childOf(*model, "attention0"));
        auto x = model->embed(ids);
        x = attention->forward(layerNorm(x, *childOf(*model, "attention_norm0")), mask).output;
        x = linear(torch::relu(linear(layerNorm(x, *childOf(*model, "ffn_norm0")), *childOf(*model, "ffn_in0"))),
                   *childOf(*model, "ffn_out0"));
        x = layerNorm(x, *childOf(*model, "final_norm"));
        const auto m = mask.unsqueeze(-1).to(torch::kFloat);
        const auto pooled = (x * m).sum(1) / m.sum(1);
        QVERIFY(torch::allclose(got, linear(pooled, *childOf(*model, "output")), 1e-5, 1e-5));
    }

    // The translation Transformer: its pre-LN default has 2 LayerNorms an encoder layer, 3 a decoder layer and a final
    // one each side; post-LN leaves out the two final ones; none has none. For every combination, the encoder's
    // states by hand from its own modules, and the decoder's cached steps equal to its teacher-forced pass.
    void theTranslationTransformerFollowsTheSwitches()
    {
        const std::int64_t ln = 2 * 8;
        auto count = [](const ModelConfig& c) { return parameterCount(*ModelFactory::createTranslator(c)); };
        const auto pre = count(translator("", true, 2));
        QCOMPARE(count(translator("pre", false, 2)), pre);
        QCOMPARE(count(translator("post", true, 2)), pre - 2 * ln);
        QCOMPARE(count(translator("none", true, 2)), pre - (2 * 2 + 2 * 3 + 2) * ln);
        for (const std::string norm : {"pre", "post", "none"})
            for (const bool residual : {true, false}) {
                const std::string name = norm + (residual ? " residual" : " no residual");
                torch::manual_seed(11);
                auto model = ModelFactory::createTranslator(translator(norm, residual, 1));
                model->eval();
                torch::NoGradGuard noGrad;
                for (auto& p : model->named_parameters())
                    if (p.key().find("norm") != std::string::npos)
                        p.value().uniform_(0.5, 1.5);
                const auto source = torch::tensor({{4, 5, 6, 7}, {8, 9, 0, 0}}, torch::kLong), mask = source.ne(0);
                const auto encoded = model->encode(source, mask);

                auto layer = childOf(*model, "encoder_layer0"); // a TransformerBlock
                auto attention = std::dynamic_pointer_cast<SelfAttentionImpl>(childOf(*layer, "attention"));
                auto sub = [&](const torch::Tensor& v, const std::string& ln, auto f) {
                    auto branch = f(norm == "pre" ? layerNorm(v, *childOf(*layer, ln)) : v);
                    auto y = residual ? v + branch : branch;
                    return norm == "post" ? layerNorm(y, *childOf(*layer, ln)) : y;
                };
                auto x = torch::embedding(childOf(*model, "source_embedding")->named_parameters()["weight"], source) * std::sqrt(8.0);
                x = sub(x, "norm1", [&](const torch::Tensor& h) { return attention->forward(h, mask).output; });
                x = sub(x, "norm2", [&](const torch::Tensor& h) {
                    return linear(torch::relu(linear(h, *childOf(*layer, "ffn_in"))), *childOf(*layer, "ffn_out"));
                });
                if (norm == "pre")
                    x = layerNorm(x, *childOf(*model, "encoder_final_norm"));
                QCOMPARE(childOf(*model, "encoder_final_norm") != nullptr, norm == "pre");
                QCOMPARE(childOf(*layer, "norm1") == nullptr, norm == "none");
                QCOMPARE(childOf(*childOf(*model, "decoder_layer0"), "cross_norm") == nullptr, norm == "none");
                QVERIFY2(torch::allclose(encoded.memory, x, 1e-5, 1e-5), name.c_str());

                const auto target = torch::tensor({{2, 4, 5, 6}, {2, 7, 8, 9}}, torch::kLong); // unpadded: a step attends to its own token
                const auto forced = model->forced(source, mask, target);
                auto state = model->start(encoded);
                for (int64_t t = 0; t < 4; ++t) {
                    const auto out = model->step(encoded, state, target.select(1, t), t);
                    QVERIFY2(torch::allclose(out.logits, forced.logits.select(1, t), 1e-4, 1e-5), (name + " step " + std::to_string(t)).c_str());
                }
            }
        QVERIFY(QString::fromStdString(ModelFactory::createTranslator(translator("none", false, 1))->summary()).contains("(no LayerNorm, no residuals)"));
        auto mixed = translator("post", true, 1);
        mixed.model = "birnn-transformer";
        QVERIFY(mixed.validate().rfind("layer_norm: model 'birnn-transformer' has no residual blocks to change", 0) == 0);
    }

    void settingsRefusedWhereTheyMeanNothing()
    {
        ModelConfig m = classifier("sideways", true);
        QCOMPARE(m.validate(), std::string("layer_norm: unknown 'sideways' (known: pre, post, none)"));
        m = classifier("", false);
        m.model = "lstm";
        m.position = "none";
        QCOMPARE(m.validate(),
                 std::string("residual: model 'lstm' has no residual blocks to change (transformer, "
                             "transformer-seq2seq, gpt have)"));
        m.residual = true;
        m.layerNorm = "pre";
        QVERIFY(QString::fromStdString(m.validate()).startsWith("layer_norm: model 'lstm'"));
        TrainConfig t;
        QVERIFY(t.toJson().find("layer_norm") == std::string::npos); // earlier runs' configurations and group keys stay
        QVERIFY(t.toJson().find("residual") == std::string::npos);
        t.model = classifier("none", false);
        const auto back = TrainConfig::fromJson(t.toJson());
        QCOMPARE(back.model.layerNorm, std::string("none"));
        QVERIFY(!back.model.residual);
    }
};

QTEST_GUILESS_MAIN(TestBlockSwitches)
#include "test_block_switches.moc"
