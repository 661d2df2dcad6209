// The gates a view shows: an LSTM's and a GRU's, by hand on a tiny input, and the same parameters' states equal to
// LibTorch's layers; through the classifier and the char-RNN as the explainer reads them.
#include "core/config/ModelConfig.h"
#include "core/nn/layers/RecurrentGates.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/models/SequenceClassifier.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace attnlab;

namespace {
double sigmoid(double a)
{
    return 1.0 / (1.0 + std::exp(-a));
}

// Values 0.37 (i + offset) mod 1 - 0.5: fixed, in [-0.5, 0.5), different enough to tell every row apart.
torch::Tensor fixedValues(std::vector<std::int64_t> shape, int offset)
{
    std::int64_t n = 1;
    for (auto s : shape)
        n *= s;
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = std::fmod(0.37 * static_cast<double>(i + offset), 1.0) - 0.5;
    return torch::tensor(v, torch::kDouble).reshape(shape).to(torch::kFloat);
}

double entry(const torch::Tensor& t, std::int64_t r, std::int64_t c)
{
    return t[r][c].item<double>();
}
} // namespace

class TestRecurrentGates : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // H = 2 units, I = 2 inputs, T = 3 steps: i, f, g, o, c and h written out from the equations, in doubles.
    void lstmGatesAreTheCellEquations()
    {
        const std::int64_t H = 2, I = 2, T = 3;
        const RecurrentWeights w {fixedValues({4 * H, I}, 0), fixedValues({4 * H, H}, 7), fixedValues({4 * H}, 3),
                                  fixedValues({4 * H}, 11)};
        const auto x = fixedValues({T, I}, 5) * 3;
        for (const bool reverse : {false, true}) {
            const auto trace = RecurrentGates::lstm(x, w, reverse);
            QCOMPARE(trace.names, (std::vector<std::string> {"input", "forget", "candidate", "output", "cell"}));
            double h[2] = {0, 0}, c[2] = {0, 0};
            for (std::int64_t k = 0; k < T; ++k) {
                const std::int64_t t = reverse ? T - 1 - k : k;
                double a[8];
                for (std::int64_t r = 0; r < 4 * H; ++r) {
                    a[r] = w.biasIh[r].item<double>() + w.biasHh[r].item<double>();
                    for (std::int64_t j = 0; j < I; ++j)
                        a[r] += entry(w.ih, r, j) * entry(x, t, j);
                    for (std::int64_t j = 0; j < H; ++j)
                        a[r] += entry(w.hh, r, j) * h[j];
                }
                for (std::int64_t u = 0; u < H; ++u) {
                    const double i = sigmoid(a[u]), f = sigmoid(a[H + u]), g = std::tanh(a[2 * H + u]),
                                 o = sigmoid(a[3 * H + u]);
                    c[u] = f * c[u] + i * g;
                    h[u] = o * std::tanh(c[u]);
                    const double expected[5] = {i, f, g, o, c[u]};
                    for (int gate = 0; gate < 5; ++gate)
                        QVERIFY2(std::abs(trace.values[gate][t][u].item<double>() - expected[gate]) < 1e-6,
                                 qPrintable(QStringLiteral("gate %1, step %2, unit %3").arg(gate).arg(t).arg(u)));
                }
                for (std::int64_t u = 0; u < H; ++u)
                    QVERIFY(std::abs(trace.states[t][u].item<double>() - h[u]) < 1e-6);
            }
        }
    }

    void gruGatesAreTheCellEquations()
    {
        const std::int64_t H = 2, I = 2, T = 3;
        const RecurrentWeights w {fixedValues({3 * H, I}, 1), fixedValues({3 * H, H}, 4), fixedValues({3 * H}, 9),
                                  fixedValues({3 * H}, 2)};
        const auto x = fixedValues({T, I}, 6) * 3;
        const auto trace = RecurrentGates::gru(x, w, false);
        QCOMPARE(trace.names, (std::vector<std::string> {"reset", "update", "candidate"}));
        double h[2] = {0, 0};
        for (std::int64_t t = 0; t < T; ++t) {
            double in[6], rec[6];
            for (std::int64_t r = 0; r < 3 * H; ++r) {
                in[r] = w.biasIh[r].item<double>();
                rec[r] = w.biasHh[r].item<double>();
                for (std::int64_t j = 0; j < I; ++j)
                    in[r] += entry(w.ih, r, j) * entry(x, t, j);
                for (std::int64_t j = 0; j < H; ++j)
                    rec[r] += entry(w.hh, r, j) * h[j];
            }
            double next[2];
            for (std::int64_t u = 0; u < H; ++u) {
                const double r = sigmoid(in[u] + rec[u]), z = sigmoid(in[H + u] + rec[H + u]);
                const double n = std::tanh(in[2 * H + u] + r * rec[2 * H + u]);
                next[u] = (1 - z) * n + z * h[u];
                const double expected[3] = {r, z, n};
                for (int gate = 0; gate < 3; ++gate)
                    QVERIFY(std::abs(trace.values[gate][t][u].item<double>() - expected[gate]) < 1e-6);
            }
            h[0] = next[0];
            h[1] = next[1];
            QVERIFY(std::abs(trace.states[t][0].item<double>() - h[0]) < 1e-6);
        }
    }

    // Two layers, both directions: the traces' states are LibTorch's outputs for the same parameters.
    void statesEqualLibTorchsLayers()
    {
        torch::manual_seed(4);
        const auto x = torch::randn({7, 3});
        torch::nn::LSTM lstm(torch::nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
        torch::nn::GRU gru(torch::nn::GRUOptions(3, 4).num_layers(2).bidirectional(true));
        torch::NoGradGuard noGrad;
        const auto lstmOut = std::get<0>(lstm->forward(x.unsqueeze(1))).squeeze(1); // [T, 2H]
        const auto gruOut = std::get<0>(gru->forward(x.unsqueeze(1))).squeeze(1);
        for (const bool isLstm : {true, false}) {
            torch::nn::Module& cell =
                isLstm ? static_cast<torch::nn::Module&>(*lstm) : static_cast<torch::nn::Module&>(*gru);
            const auto traces = RecurrentGates::ofModule(cell, isLstm, 2, true, x);
            QCOMPARE(traces.size(), std::size_t {4});
            QCOMPARE(traces[3].layer, 1);
            QVERIFY(traces[3].reverse);
            const auto top = torch::cat({traces[2].states, traces[3].states}, 1);
            QVERIFY2(torch::allclose(top, isLstm ? lstmOut : gruOut, 1e-5, 1e-6), isLstm ? "lstm" : "gru");
        }
    }

    // As the explainer and the writing view read them: a BiLSTM classifier's strips, the char-LSTM's, none for a
    // plain RNN; each strip's mean over units.
    void modelsGiveTheirGates()
    {
        torch::manual_seed(2);
        ModelConfig c;
        c.model = "bilstm";
        c.position = "none";
        c.dModel = 5;
        c.vocabularySize = 20;
        c.numClasses = 2;
        auto classifier = ModelFactory::create(c);
        classifier->eval();
        const auto ids = torch::tensor({{3, 7, 1, 9}}, torch::kLong);
        const GateValues g = classifier->gates(ids);
        QCOMPARE(QString::fromStdString(g.cell), QStringLiteral("lstm"));
        QCOMPARE(g.strips.size(), std::size_t {2});
        QCOMPARE(QString::fromStdString(g.strips[1].direction), QStringLiteral("backward"));
        QCOMPARE(g.strips[0].tokens, 4);
        QCOMPARE(g.strips[0].units, 5);
        const int forget = g.strips[0].gateIndex("forget");
        QCOMPARE(forget, 1);
        const auto mean = g.strips[0].meanOverUnits(forget);
        double sum = 0;
        for (int u = 0; u < 5; ++u)
            sum += g.strips[0].at(forget, 2, u);
        QVERIFY(std::abs(mean[2] - sum / 5) < 1e-6);
        QVERIFY(mean[2] > 0.0f && mean[2] < 1.0f);
        c.model = "rnn";
        QVERIFY(ModelFactory::create(c)->gates(ids).empty());

        ModelConfig lm;
        lm.model = "char-rnn";
        lm.position = "none";
        lm.cell = "gru";
        lm.dModel = 6;
        lm.layers = 2;
        lm.vocabularySize = 12;
        lm.numClasses = 0;
        const GateValues written = ModelFactory::createLanguageModel(lm)->gates(ids);
        QCOMPARE(QString::fromStdString(written.cell), QStringLiteral("gru"));
        QCOMPARE(written.strips.size(), std::size_t {2});
        QCOMPARE(written.strips[1].layer, 1);
        lm.cell = "rnn";
        QVERIFY(ModelFactory::createLanguageModel(lm)->gates(ids).empty());
        const auto json = QJsonDocument::fromJson(QByteArray::fromStdString(written.toJson())).object();
        QCOMPARE(json["layers"].toArray().size(), 2);
        QCOMPARE(json["layers"].toArray()[0].toObject()["gates"].toObject()["update"].toArray().size(), 4);
    }
};

QTEST_APPLESS_MAIN(TestRecurrentGates)
#include "test_recurrent_gates.moc"
