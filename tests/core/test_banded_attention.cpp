// Sliding-window attention with global tokens (BandedAttention): a tiny case by hand, the banded computation equal to
// full attention with the band as a mask (outputs, weights and gradients; every in-attention position technique,
// padding, causal), its working tensors of width G + 2w + 1 rather than T, the classifiers built with it, the step by
// step view masking what the band hides, and the settings refused where they mean nothing.
#include "core/config/ModelConfig.h"
#include "core/config/TrainConfig.h"
#include "core/nn/layers/BandedAttention.h"
#include "core/nn/layers/PositionEncoding.h"
#include "core/nn/layers/SelfAttention.h"
#include "core/nn/models/ModelFactory.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace attnlab;

namespace {

// Full attention (SelfAttentionImpl::attend) with the band as an additive -1e9 bias: the reference.
SelfAttentionImpl::Result fullWithBand(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                       const torch::Tensor& mask, const BandedAttention::Settings& s, const torch::Tensor& relKeys,
                                       const torch::Tensor& relValues, int clip, bool alibi)
{
    const int64_t heads = q.size(1), length = q.size(2);
    auto bias = torch::zeros({heads, length, length}, q.options())
                    .masked_fill(BandedAttention::bandMask(length, s, q.device()).logical_not().unsqueeze(0), -1e9);
    if (alibi)
        bias = bias + PositionEncoding::alibiBias(heads, length, q.options());
    return SelfAttentionImpl::attend(q, k, v, mask, relKeys, relValues, clip, bias);
}

ModelConfig classifier(const std::string& model, int window, int globals)
{
    ModelConfig m;
    m.model = model;
    m.position = "rpr";
    m.rprClip = 3;
    m.dModel = 8;
    m.heads = model == "ssan" ? 1 : 2;
    m.layers = 2;
    m.ffnHidden = 16;
    m.dropoutKeep = 1.0;
    m.vocabularySize = 30;
    m.numClasses = 3;
    m.attentionWindow = window;
    m.globalTokens = globals;
    return m;
}

} // namespace

class BandedAttentionTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // T = 4, one head of size 1, w = 1: query i weighs keys i-1, i, i+1 by softmax(q_i k_j), written out.
    void tinyCaseByHand()
    {
        const std::vector<float> qs = {0.5f, -1.0f, 2.0f, 0.25f}, ks = {1.0f, 0.5f, -0.5f, 2.0f}, vs = {1.0f, 2.0f, 3.0f, 4.0f};
        auto q = torch::tensor(qs).view({1, 1, 4, 1}), k = torch::tensor(ks).view({1, 1, 4, 1}),
             v = torch::tensor(vs).view({1, 1, 4, 1});
        const auto mask = torch::ones({1, 4}, torch::kBool);
        const auto r = BandedAttention::attend(q, k, v, mask, {1, 0, false}, {}, {}, 0);
        QCOMPARE(r.weights.size(3), 4); // shorter than a chunk's span (16 + 2w): the masked full matrix
        const auto dense = BandedAttention::dense(r.weights, r.keyIndex, r.globalWeights);
        for (int i = 0; i < 4; ++i) {
            double sum = 0.0, out = 0.0;
            std::vector<double> e(4, 0.0);
            for (int j = std::max(0, i - 1); j <= std::min(3, i + 1); ++j)
                sum += e[j] = std::exp(qs[i] * ks[j]); // sqrt(d_k) = 1
            for (int j = 0; j < 4; ++j) {
                QVERIFY(std::abs(dense[0][0][i][j].item<double>() - e[j] / sum) < 1e-6);
                out += e[j] / sum * vs[j];
            }
            QVERIFY(std::abs(r.output[0][0][i][0].item<double>() - out) < 1e-5);
        }
        // One global token (G = 1): query 0 sees all four keys, and key 0 is seen by query 3 (outside its band).
        const auto g = BandedAttention::attend(q, k, v, mask, {1, 1, false}, {}, {}, 0);
        const auto gd = BandedAttention::dense(g.weights, g.keyIndex, g.globalWeights);
        double sum0 = 0.0;
        for (int j = 0; j < 4; ++j)
            sum0 += std::exp(qs[0] * ks[j]);
        QVERIFY(std::abs(gd[0][0][0][3].item<double>() - std::exp(qs[0] * ks[3]) / sum0) < 1e-6);
        const double sum3 = std::exp(qs[3] * ks[0]) + std::exp(qs[3] * ks[2]) + std::exp(qs[3] * ks[3]);
        QVERIFY(std::abs(gd[0][0][3][0].item<double>() - std::exp(qs[3] * ks[0]) / sum3) < 1e-6);
        QCOMPARE(gd[0][0][3][1].item<double>(), 0.0);
    }

    // The banded computation = full attention with the band as a mask, for the real queries: outputs, weights, and
    // the gradients of q, k, v and the RPR tables, with padding, global tokens, causal, RPR and ALiBi.
    void equalsFullAttentionWithABandMask()
    {
        torch::manual_seed(7);
        const int64_t batch = 2, heads = 2, headSize = 4, clip = 3;
        for (const int64_t length : {13, 45, 130}) // shorter than a chunk's span; three and more chunks (the last partly padding)
        for (const bool causal : {false, true})
            for (const int window : {1, 5, 20})
                for (const int globals : {0, 1, 3})
                    for (const std::string position : {"none", "rpr", "alibi"}) {
                        const BandedAttention::Settings s{window, globals, causal};
                        auto mask = torch::ones({batch, length}, torch::kBool);
                        mask[1].narrow(0, length - 4, 4).fill_(false); // the second sentence is 4 tokens shorter
                        auto q = torch::randn({batch, heads, length, headSize}, torch::requires_grad());
                        auto k = torch::randn({batch, heads, length, headSize}, torch::requires_grad());
                        auto v = torch::randn({batch, heads, length, headSize}, torch::requires_grad());
                        torch::Tensor relKeys, relValues;
                        if (position == "rpr") {
                            relKeys = torch::randn({2 * clip + 1, headSize}, torch::requires_grad());
                            relValues = torch::randn({2 * clip + 1, headSize}, torch::requires_grad());
                        }
                        const bool alibi = position == "alibi";
                        const auto slopes = alibi ? PositionEncoding::alibiSlopes(heads, q.options()) : torch::Tensor();
                        const auto banded = BandedAttention::attend(q, k, v, mask, s, relKeys, relValues, clip, slopes);
                        const auto full = fullWithBand(q, k, v, mask, s, relKeys, relValues, clip, alibi);
                        const auto real = mask.view({batch, 1, length, 1}).to(torch::kFloat);
                        const auto what = QString("T %5 causal %1 w %2 G %3 %4").arg(causal).arg(window).arg(globals).arg(position.c_str()).arg(length);
                        QVERIFY2(((banded.output - full.output) * real).abs().max().item<double>() < 1e-5, qPrintable(what));
                        const auto dense = BandedAttention::dense(banded.weights, banded.keyIndex, banded.globalWeights);
                        QVERIFY2(((dense - full.weights) * real).abs().max().item<double>() < 1e-6, qPrintable(what));
                        // Each query's columns: G + c + 2w (causal c + w), c = max(w, 16): not the length, unless the
                        // sentence is no longer than that span.
                        const int64_t span = std::max(window, 16) + window * (causal ? 1 : 2);
                        QCOMPARE(banded.weights.size(3), length <= span ? length : globals + span);
                        // Gradients through the real rows, with random upstream weights.
                        const auto upstream = torch::randn_like(banded.output) * real;
                        std::vector<torch::Tensor> inputs = {q, k, v};
                        if (relKeys.defined())
                            inputs.insert(inputs.end(), {relKeys, relValues});
                        const auto gb = torch::autograd::grad({(banded.output * upstream).sum()}, inputs);
                        const auto gf = torch::autograd::grad({(full.output * upstream).sum()}, inputs);
                        for (std::size_t n = 0; n < inputs.size(); ++n)
                            QVERIFY2((gb[n] - gf[n]).abs().max().item<double>() < 1e-4, qPrintable(what + " gradient " + QString::number(n)));
                    }
    }

    // A Transformer (and SSAN) classifier whose window covers the whole sentence computes exactly what the full model
    // does from the same weights; a narrower window changes the output; the recorded attention is the dense band.
    void classifierWithAWindow()
    {
        for (const std::string model : {"transformer", "ssan"}) {
            torch::manual_seed(3);
            auto full = ModelFactory::create(classifier(model, 0, 0));
            torch::manual_seed(3);
            auto wide = ModelFactory::create(classifier(model, 39, 0));
            torch::manual_seed(3);
            auto narrow = ModelFactory::create(classifier(model, 1, 1));
            QCOMPARE(full->trainableParametersWithoutEmbedding(), wide->trainableParametersWithoutEmbedding()); // a window adds no parameters
            QCOMPARE(full->trainableParametersWithoutEmbedding(), narrow->trainableParametersWithoutEmbedding());
            full->eval();
            wide->eval();
            narrow->eval();
            // 40 tokens: the narrow window computes by chunks (its span 18 < 40), the wide one as a masked matrix.
            const auto ids = torch::randint(1, 30, {3, 40}, torch::kLong);
            auto mask = torch::ones({3, 40}, torch::kBool);
            mask[2].narrow(0, 15, 25).fill_(false);
            torch::NoGradGuard noGrad;
            const auto a = full->forward(ids, mask), b = wide->forward(ids, mask);
            QVERIFY((a - b).abs().max().item<double>() < 1e-5);
            narrow->setRecordAttention(true);
            const auto c = narrow->forward(ids, mask);
            QVERIFY((a - c).abs().max().item<double>() > 1e-4);
            const auto weights = narrow->recordedAttention();
            QCOMPARE(static_cast<int>(weights.size()), 2);
            const auto band = BandedAttention::bandMask(40, {1, 1, false}, torch::kCPU);
            for (const auto& w : weights) {
                QCOMPARE(w.sizes(), (torch::IntArrayRef{3, model == "ssan" ? 1 : 2, 40, 40}));
                QCOMPARE(w.masked_select(band.logical_not()).abs().max().item<double>(), 0.0);
                QVERIFY((w[0].sum(-1) - 1.0).abs().max().item<double>() < 1e-5);
            }
            QVERIFY(QString::fromStdString(narrow->summary()).contains("sliding window +-1 with 1 global tokens"));
        }
    }

    // Step by step, a banded layer hides the keys outside the band and its weights are the model's row.
    void stepByStepMasksTheBand()
    {
        torch::manual_seed(5);
        auto o = SelfAttentionOptions::transformer(8, 2, "rpr", 2);
        o.window = 2;
        o.globalTokens = 1;
        SelfAttention layer(o);
        const auto x = torch::randn({1, 10, 8});
        const auto mask = torch::ones({1, 10}, torch::kBool);
        const auto s = layer->stepByStep(x, mask, 1, 6);
        for (int j = 0; j < 10; ++j) {
            const bool seen = j == 0 || std::abs(j - 6) <= 2;
            QCOMPARE(s.masked[j], !seen);
            QVERIFY(std::abs(s.weights[j] - s.modelWeights[j]) < 1e-6);
            if (!seen)
                QCOMPARE(s.weights[j], 0.0f);
        }
    }

    void settingsRefusedWhereTheyMeanNothing()
    {
        auto m = classifier("transformer", 4, 2);
        QVERIFY(m.validate().empty());
        auto lstm = m;
        lstm.model = "lstm";
        lstm.position = "none";
        QVERIFY(QString::fromStdString(lstm.validate()).startsWith("attention_window: model 'lstm'"));
        auto noWindow = m;
        noWindow.attentionWindow = 0;
        QVERIFY(QString::fromStdString(noWindow.validate()).startsWith("global_tokens:"));
        auto uniform = m;
        uniform.uniformAttention = true;
        QVERIFY(QString::fromStdString(uniform.validate()).startsWith("attention_window: uniform"));
        auto negative = m;
        negative.attentionWindow = -1;
        QVERIFY(QString::fromStdString(negative.validate()).startsWith("attention_window: 0"));
        // JSON: present only when set, read back.
        TrainConfig c;
        QVERIFY(!QString::fromStdString(c.toJson()).contains("attention_window"));
        c.model = m;
        const auto back = TrainConfig::fromJson(c.toJson());
        QCOMPARE(back.model.attentionWindow, 4);
        QCOMPARE(back.model.globalTokens, 2);
    }
};

QTEST_APPLESS_MAIN(BandedAttentionTest)
#include "test_banded_attention.moc"
