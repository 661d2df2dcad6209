// Attention arithmetic against hand-computed values, and padding invariance of whole models.
#include "core/config/ModelConfig.h"
#include "core/data/BatchBuilder.h"
#include "core/nn/layers/BatchedMatmul.h"
#include "core/nn/layers/RmsNorm.h"
#include "core/nn/layers/ScaledDotProductAttention.h"
#include "core/nn/layers/SelfAttention.h"
#include "core/results/AttentionCsv.h"
#include "core/training/TextClassifier.h"

#include <QtTest/QtTest>

using attnlab::BatchedMatmul;
using attnlab::SelfAttentionImpl;

namespace {

torch::Tensor heads(std::initializer_list<std::initializer_list<float>> rows)
{
    std::vector<float> flat;
    int64_t n = 0, d = 0;
    for (auto r : rows) {
        d = static_cast<int64_t>(r.size());
        flat.insert(flat.end(), r.begin(), r.end());
        ++n;
    }
    return torch::tensor(flat).view({1, 1, n, d});
}

attnlab::ModelConfig smallSsan(const std::string& position, int layers = 1)
{
    attnlab::ModelConfig c;
    c.model = "ssan";
    c.position = position;
    c.dModel = 8;
    c.layers = layers;
    c.rprClip = 2;
    c.vocabularySize = 20;
    c.numClasses = 3;
    return c;
}

} // namespace

class TestAttention : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The Explorer's "Export map…" numbers: every weight once, tokens quoted with inner quotes doubled.
    void attentionCsvListsEveryWeight()
    {
        attnlab::AttentionSnapshot s;
        s.tokens = {"say", "\"hi\""};
        s.maps.push_back({0, 1, 2, {0.25f, 0.75f, 1.0f, 0.0f}});
        s.pooling = {0.5, 0.5};
        const std::string csv = attnlab::AttentionCsv::of(s);
        QCOMPARE(QString::fromStdString(csv), QStringLiteral("view,layer,head,query,key,weight\n"
                                                             "map,1,2,\"say\",\"say\",0.25\n"
                                                             "map,1,2,\"say\",\"\"\"hi\"\"\",0.75\n"
                                                             "map,1,2,\"\"\"hi\"\"\",\"say\",1\n"
                                                             "map,1,2,\"\"\"hi\"\"\",\"\"\"hi\"\"\",0\n"
                                                             "pooling,,,,\"say\",0.5\n"
                                                             "pooling,,,,\"\"\"hi\"\"\",0.5\n"));
    }

    void scaledDotProductMatchesHandComputation()
    {
        // q0 = (1,0), q1 = (0,1), q2 = (1,1); keys (1,0), (0,1) and a padded (5,5); d = 2.
        // Query 0: scores (1, 0)/sqrt(2) -> softmax: e^{0.7071}/(e^{0.7071}+1) = 0.669762, 0.330238.
        auto q = heads({{1, 0}, {0, 1}, {1, 1}});
        auto k = heads({{1, 0}, {0, 1}, {5, 5}});
        auto v = heads({{1, 2}, {3, 4}, {100, 100}});
        auto mask = torch::tensor({1, 1, 0}).to(torch::kBool).view({1, 3});
        auto r = SelfAttentionImpl::attend(q, k, v, mask, {}, {}, 0);
        auto w = r.weights[0][0];
        QCOMPARE(w.size(0), 3);
        QVERIFY(std::abs(w[0][0].item<float>() - 0.669762f) < 1e-5f);
        QVERIFY(std::abs(w[0][1].item<float>() - 0.330238f) < 1e-5f);
        QVERIFY(std::abs(w[1][0].item<float>() - 0.330238f) < 1e-5f);
        QVERIFY(std::abs(w[2][0].item<float>() - 0.5f) < 1e-6f); // equal scores -> equal weights
        // The padded key gets exactly zero weight, whatever its content.
        for (int i = 0; i < 3; ++i)
            QCOMPARE(w[i][2].item<float>(), 0.0f);
        // y0 = 0.669762 * (1,2) + 0.330238 * (3,4) = (1.660477, 2.660477)
        QVERIFY(std::abs(r.output[0][0][0][0].item<float>() - 1.660477f) < 1e-5f);
        QVERIFY(std::abs(r.output[0][0][0][1].item<float>() - 2.660477f) < 1e-5f);
    }

    void relativePositionsMatchHandComputation()
    {
        // d = 1, k = 1: tables rows are distances -1, 0, +1. w^K = (0, 1, 2), w^V = (10, 20, 30).
        // e_ij = q_i (k_j + a^K_ij): query 0 -> (1*(1+1), 1*(1+2)) = (2, 3); query 1 -> (2*(1+0), 2*(1+1)) = (2, 4).
        // y_0 = 0.268941 (1 + 20) + 0.731059 (0 + 30) = 27.579527; y_1 = 0.119203 (1 + 10) + 0.880797 (0 + 20) = 18.927174.
        auto q = heads({{1}, {2}});
        auto k = heads({{1}, {1}});
        auto v = heads({{1}, {0}});
        auto relKeys = torch::tensor({0.f, 1.f, 2.f}).view({3, 1});
        auto relValues = torch::tensor({10.f, 20.f, 30.f}).view({3, 1});
        auto mask = torch::ones({1, 2}, torch::kBool);
        auto r = SelfAttentionImpl::attend(q, k, v, mask, relKeys, relValues, 1);
        auto w = r.weights[0][0];
        QVERIFY(std::abs(w[0][0].item<float>() - 0.268941f) < 1e-5f);
        QVERIFY(std::abs(w[0][1].item<float>() - 0.731059f) < 1e-5f);
        QVERIFY(std::abs(w[1][0].item<float>() - 0.119203f) < 1e-5f);
        QVERIFY(std::abs(r.output[0][0][0][0].item<float>() - 27.579527f) < 1e-4f);
        QVERIFY(std::abs(r.output[0][0][1][0].item<float>() - 18.927174f) < 1e-4f);
    }

    // Grouped-query attention: 6 query heads over 2 key/value heads is multi-head attention over the key and
    // value heads repeated by hand (query heads 0-2 read kv head 0, 3-5 read kv head 1), with RPR, a bias and
    // padding too; a count that does not divide is refused naming both.
    void groupedQueryAttentionIsRepeatedKeyValueHeads()
    {
        torch::manual_seed(3);
        const int64_t batch = 2, heads = 6, kvHeads = 2, queries = 4, keys = 5, dh = 3;
        const auto q = torch::randn({batch, heads, queries, dh});
        const auto k = torch::randn({batch, kvHeads, keys, dh}), v = torch::randn({batch, kvHeads, keys, dh});
        auto kRepeated = torch::empty({batch, heads, keys, dh}), vRepeated = torch::empty({batch, heads, keys, dh});
        for (int64_t h = 0; h < heads; ++h) {
            kRepeated.select(1, h).copy_(k.select(1, h / (heads / kvHeads)));
            vRepeated.select(1, h).copy_(v.select(1, h / (heads / kvHeads)));
        }
        attnlab::AttentionTerms terms;
        terms.keyMask = torch::tensor({1, 1, 1, 1, 0, 1, 1, 1, 0, 0}).to(torch::kBool).view({batch, keys});
        terms.relativeKeys = torch::randn({5, dh});
        terms.relativeValues = torch::randn({5, dh});
        terms.rprClip = 2;
        terms.bias = torch::randn({heads, queries, keys});
        const auto grouped = attnlab::ScaledDotProductAttention::apply(q, k, v, terms);
        const auto byHand = attnlab::ScaledDotProductAttention::apply(q, kRepeated, vRepeated, terms);
        QCOMPARE(grouped.weights.sizes(), byHand.weights.sizes());
        QVERIFY(torch::equal(grouped.weights, byHand.weights));
        QVERIFY(torch::equal(grouped.output, byHand.output));
        // Heads 0 and 2 share keys: the same query gives the same weights.
        auto sameQuery = q.clone();
        sameQuery.select(1, 2).copy_(sameQuery.select(1, 0));
        attnlab::AttentionTerms plain;
        const auto shared = attnlab::ScaledDotProductAttention::apply(sameQuery, k, v, plain);
        QVERIFY(torch::allclose(shared.weights.select(1, 0), shared.weights.select(1, 2)));
        QVERIFY(!torch::allclose(
            shared.weights.select(1, 0),
            attnlab::ScaledDotProductAttention::apply(sameQuery, kRepeated.roll(3, 1), vRepeated, plain)
                .weights.select(1, 0)));
        try {
            attnlab::ScaledDotProductAttention::apply(q, torch::randn({batch, 4, keys, dh}),
                                                      torch::randn({batch, 4, keys, dh}));
            QFAIL("4 key/value heads for 6 query heads were accepted");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()), std::string("attention: 4 key/value heads do not divide 6 query heads"));
        }
    }

    // RMSNorm by hand: x = (3, 4) has mean square 12.5, so y = x / sqrt(12.5 + eps) * g; with g = (1, 2) that is
    // (0.848528, 2.262742). No mean is subtracted: (1, 1) stays (1, 1) / sqrt(1 + eps).
    void rmsNormMatchesHandComputation()
    {
        attnlab::RmsNorm norm(2, 1e-5);
        QCOMPARE(norm->weight.sizes(), torch::IntArrayRef({2}));
        QVERIFY(torch::equal(norm->weight, torch::ones({2})));
        torch::NoGradGuard noGrad;
        norm->weight.copy_(torch::tensor({1.f, 2.f}));
        const auto y = norm(torch::tensor({3.f, 4.f, 1.f, 1.f}).view({2, 1, 2}));
        QCOMPARE(y.sizes(), torch::IntArrayRef({2, 1, 2}));
        const double inverse = 1.0 / std::sqrt(12.5 + 1e-5);
        QVERIFY(std::abs(y[0][0][0].item<float>() - static_cast<float>(3 * inverse)) < 1e-6f);
        QVERIFY(std::abs(y[0][0][1].item<float>() - static_cast<float>(8 * inverse)) < 1e-6f);
        QVERIFY(std::abs(y[0][0][0].item<float>() - 0.848528f) < 1e-5f);
        QVERIFY(std::abs(y[0][0][1].item<float>() - 2.262742f) < 1e-5f);
        QVERIFY(std::abs(y[1][0][0].item<float>() - static_cast<float>(1.0 / std::sqrt(1.0 + 1e-5))) < 1e-6f);
        QVERIFY(std::abs(y[1][0][1].item<float>() - static_cast<float>(2.0 / std::sqrt(1.0 + 1e-5))) < 1e-6f);
        QCOMPARE(norm->named_parameters().size(), std::size_t(1)); // the gain only: no bias
    }

    void relativeIndexClipsDistances()
    {
        // clip(j - i, 2) + 2 for a length-5 sequence.
        auto index = SelfAttentionImpl::relativeIndex(5, 2, torch::kCPU);
        const std::vector<std::vector<int64_t>> expected = {
            {2, 3, 4, 4, 4}, {1, 2, 3, 4, 4}, {0, 1, 2, 3, 4}, {0, 0, 1, 2, 3}, {0, 0, 0, 1, 2}};
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 5; ++j)
                QCOMPARE(index[i][j].item<int64_t>(), expected[i][j]);
    }

    void modelAttentionRowsSumToOneAndIgnorePadding()
    {
        for (const std::string position : {"none", "rpr"}) {
            attnlab::TextClassifier model(smallSsan(position, 2), 3);
            // Sequence of length 3 padded to 6 by a longer neighbour; attention() reports the first one.
            auto batch = attnlab::BatchBuilder::pad({{4, 5, 6}, {7, 8, 9, 10, 11, 12}}, {0, 1});
            const auto maps = model.attention(batch);
            QCOMPARE(static_cast<int>(maps.size()), 2); // one per layer, single head
            for (const auto& map : maps) {
                QCOMPARE(map.size, 3);
                for (int i = 0; i < map.size; ++i) {
                    float sum = 0;
                    for (int j = 0; j < map.size; ++j)
                        sum += map.at(i, j);
                    QVERIFY2(std::abs(sum - 1.0f) < 1e-5f, "attention row does not sum to 1");
                }
            }
        }
    }

    void paddedContentNeverChangesOutputs()
    {
        for (const std::string model : {"ssan", "lstm"}) {
            for (const std::string position : {"none", "rpr"}) {
                if (model == "lstm" && position == "rpr")
                    continue;
                auto config = smallSsan(position);
                config.model = model;
                attnlab::TextClassifier classifier(config, 11);
                auto batch = attnlab::BatchBuilder::pad({{4, 5, 6}, {7, 8, 9, 10, 11, 12}}, {0, 1});
                const auto reference = classifier.logits(batch);
                // Same batch, different garbage in the padded slots of the short sequence.
                auto altered = batch;
                for (int t = 3; t < 6; ++t)
                    altered.tokenIds[t] = 13 + t;
                const auto changed = classifier.logits(altered);
                for (std::size_t i = 0; i < reference.size(); ++i)
                    QVERIFY2(std::abs(reference[i] - changed[i]) < 1e-6f, (model + "+" + position).c_str());
                // The short sequence alone gives the same logits as inside the padded batch.
                const auto alone = classifier.logits(attnlab::BatchBuilder::pad({{4, 5, 6}}, {0}));
                for (int c = 0; c < config.numClasses; ++c)
                    QVERIFY2(std::abs(alone[c] - reference[c]) < 1e-5f, (model + "+" + position).c_str());
            }
        }
    }

    void attentionWithoutPositionIsPermutationInvariant()
    {
        // Why position techniques matter: with none, SSAN sees a bag of words.
        attnlab::TextClassifier none(smallSsan("none"), 5);
        const auto a = none.logits(attnlab::BatchBuilder::pad({{4, 5, 6, 7}}, {0}));
        const auto b = none.logits(attnlab::BatchBuilder::pad({{7, 6, 5, 4}}, {0}));
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY(std::abs(a[i] - b[i]) < 1e-5f);
        attnlab::TextClassifier rpr(smallSsan("rpr"), 5);
        const auto c = rpr.logits(attnlab::BatchBuilder::pad({{4, 5, 6, 7}}, {0}));
        const auto d = rpr.logits(attnlab::BatchBuilder::pad({{7, 6, 5, 4}}, {0}));
        float difference = 0;
        for (std::size_t i = 0; i < c.size(); ++i)
            difference += std::abs(c[i] - d[i]);
        QVERIFY2(difference > 1e-4f, "RPR should make SSAN sensitive to word order");
    }

    // The per-head products (BatchedMatmul) against torch::matmul in double: a @ b and a @ b^T over
    // [B, H] batches of non-contiguous views (as attention's heads are), values and both gradients; one 2 x 2 by
    // hand; a GPU or an integer type falls back to torch::matmul.
    void batchedMatmulIsMatmul()
    {
        const auto byHand = BatchedMatmul::apply(torch::tensor({{{1.0, 2.0}, {3.0, 4.0}}}), torch::tensor({{{5.0, 6.0}, {7.0, 8.0}}}));
        QVERIFY(torch::equal(byHand, torch::tensor({{{19.0, 22.0}, {43.0, 50.0}}})));
        const auto transposed = BatchedMatmul::apply(torch::tensor({{{1.0, 2.0}, {3.0, 4.0}}}), torch::tensor({{{5.0, 6.0}, {7.0, 8.0}}}), true);
        QVERIFY(torch::equal(transposed, torch::tensor({{{17.0, 23.0}, {39.0, 53.0}}})));
        torch::manual_seed(4);
        for (const bool transposeB : {false, true}) {
            // [B, T, H, dh] viewed as [B, H, T, dh]: strided, as SelfAttention's q, k and v are
            auto a = torch::randn({3, 7, 4, 5}, torch::kDouble).transpose(1, 2).requires_grad_(false);
            auto aLeaf = torch::randn({3, 7, 4, 5}, torch::kDouble).requires_grad_(true);
            auto bLeaf = torch::randn({3, 4, transposeB ? 6 : 5, transposeB ? 5 : 6}, torch::kDouble).requires_grad_(true);
            a = aLeaf.transpose(1, 2); // [3, 4, 7, 5]
            const auto ours = BatchedMatmul::apply(a, bLeaf, transposeB);
            const auto reference = torch::matmul(a, transposeB ? bLeaf.transpose(-2, -1) : bLeaf);
            QVERIFY(ours.sizes() == torch::IntArrayRef({3, 4, 7, 6}));
            QVERIFY(torch::allclose(ours, reference, 0.0, 1e-12));
            const auto weights = torch::randn({3, 4, 7, 6}, torch::kDouble);
            const auto g = torch::autograd::grad({(ours * weights).sum()}, {aLeaf, bLeaf});
            const auto r = torch::autograd::grad({(reference * weights).sum()}, {aLeaf, bLeaf});
            QVERIFY2(torch::allclose(g[0], r[0], 0.0, 1e-12), transposeB ? "dA, a b^T" : "dA, a b");
            QVERIFY2(torch::allclose(g[1], r[1], 0.0, 1e-12), transposeB ? "dB, a b^T" : "dB, a b");
        }
        // float32 too, as training runs it
        const auto af = torch::randn({2, 3, 8, 4}), bf = torch::randn({2, 3, 8, 4});
        QVERIFY(torch::allclose(BatchedMatmul::apply(af, bf, true), torch::matmul(af, bf.transpose(-2, -1)), 1e-5, 1e-5));
        const auto ints = torch::ones({1, 2, 2}, torch::kLong);
        QVERIFY(torch::equal(BatchedMatmul::apply(ints, ints), torch::full({1, 2, 2}, 2, torch::kLong)));
    }
};

QTEST_APPLESS_MAIN(TestAttention)
#include "test_attention.moc"
