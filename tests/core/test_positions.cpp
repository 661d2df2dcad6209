// Position techniques against their formulas.
#include "core/nn/layers/PositionEncoding.h"
#include "core/nn/layers/SelfAttention.h"

#include <QtTest/QtTest>

#include <cmath>

using attnlab::PositionEncoding;

class TestPositions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sinusoidalMatchesTheFormula()
    {
        const int64_t length = 12, d = 10;
        auto pe = PositionEncoding::sinusoidal(length, d, torch::kFloat);
        for (int pos = 0; pos < length; ++pos) {
            for (int i = 0; i < d / 2; ++i) {
                const double angle = pos / std::pow(10000.0, 2.0 * i / d);
                QVERIFY(std::abs(pe[pos][2 * i].item<double>() - std::sin(angle)) < 1e-5);
                QVERIFY(std::abs(pe[pos][2 * i + 1].item<double>() - std::cos(angle)) < 1e-5);
            }
        }
        QCOMPARE(pe[0][1].item<float>(), 1.0f); // cos 0
    }

    void rotaryPreservesNormsAndDependsOnlyOnOffset()
    {
        torch::manual_seed(4);
        const int64_t length = 9, dh = 8;
        // The same query vector and key vector placed at every position.
        auto qv = torch::randn({dh}), kv = torch::randn({dh});
        auto q = PositionEncoding::rotary(qv.expand({1, 1, length, dh}).contiguous());
        auto k = PositionEncoding::rotary(kv.expand({1, 1, length, dh}).contiguous());
        for (int t = 0; t < length; ++t)
            QVERIFY(std::abs(q[0][0][t].norm().item<double>() - qv.norm().item<double>()) < 1e-5);
        auto scores = torch::matmul(q[0][0], k[0][0].t()); // [T, T]
        for (int offset = -3; offset <= 3; ++offset) {
            const double reference = scores[4][4 + offset].item<double>();
            for (int i = 3; i + 3 < length; ++i)
                QVERIFY2(std::abs(scores[i][i + offset].item<double>() - reference) < 1e-4, "q.k must depend on j - i only");
        }
        // And it does depend on the offset.
        QVERIFY(std::abs(scores[4][5].item<double>() - scores[4][7].item<double>()) > 1e-4);
    }

    void alibiBiasesFollowThePaper()
    {
        auto slopes = PositionEncoding::alibiSlopes(8, torch::kFloat);
        for (int h = 0; h < 8; ++h)
            QVERIFY(std::abs(slopes[h].item<double>() - std::pow(2.0, -(h + 1))) < 1e-7); // 1/2, 1/4, ... 1/256
        auto bias = PositionEncoding::alibiBias(4, 5, torch::kFloat);
        // m_h = 2^(-8h/4) = 2^(-2h): head 1 -> 1/4.
        QCOMPARE(bias.sizes(), torch::IntArrayRef({4, 5, 5}));
        QVERIFY(std::abs(bias[0][0][3].item<double>() - (-0.25 * 3)) < 1e-7);
        QVERIFY(std::abs(bias[1][4][1].item<double>() - (-0.0625 * 3)) < 1e-7);
        QCOMPARE(bias[2][2][2].item<float>(), 0.0f);
    }

    void alibiBiasReachesTheAttentionWeights()
    {
        // Equal scores everywhere: the weights are then softmax(-m |j - i|), computable by hand.
        auto q = torch::zeros({1, 1, 3, 2}), k = torch::zeros({1, 1, 3, 2}), v = torch::zeros({1, 1, 3, 2});
        auto bias = PositionEncoding::alibiBias(1, 3, torch::kFloat); // m = 2^-8
        auto r = attnlab::SelfAttentionImpl::attend(q, k, v, torch::ones({1, 3}, torch::kBool), {}, {}, 0, bias);
        const double m = std::pow(2.0, -8);
        const double z = 1 + std::exp(-m) + std::exp(-2 * m);
        QVERIFY(std::abs(r.weights[0][0][0][2].item<double>() - std::exp(-2 * m) / z) < 1e-6);
    }
};

QTEST_APPLESS_MAIN(TestPositions)
#include "test_positions.moc"
