// Le et al. 2015's IRNN as the char-RNN's cell `irnn`: ReLU units, every layer's recurrent matrix the identity and
// its biases zero at the start, so h_t = max(0, W_ih x_t + h_{t-1}) before any training.
#include "core/config/ModelConfig.h"
#include "core/nn/models/ModelFactory.h"

#include <QtTest/QtTest>

using namespace attnlab;

namespace {
ModelConfig irnn(int layers)
{
    ModelConfig c;
    c.model = "char-rnn";
    c.position = "none";
    c.cell = "irnn";
    c.dModel = 6;
    c.layers = layers;
    c.vocabularySize = 5;
    c.numClasses = 0;
    c.dropoutPoints = "none";
    return c;
}
} // namespace

class TestIdentityRnn : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyLayerStartsFromTheIdentity()
    {
        QVERIFY(irnn(2).validate().empty());
        auto model = ModelFactory::createLanguageModel(irnn(2));
        int recurrent = 0, biases = 0;
        for (const auto& p : model->named_parameters()) {
            if (p.key().find("weight_hh") != std::string::npos) {
                QVERIFY2(torch::equal(p.value(), torch::eye(6)), p.key().c_str());
                ++recurrent;
            } else if (p.key().find("rnn.bias") != std::string::npos) {
                QVERIFY2(torch::equal(p.value(), torch::zeros({6})), p.key().c_str());
                ++biases;
            }
        }
        QCOMPARE(recurrent, 2);
        QCOMPARE(biases, 4); // b_ih and b_hh of each layer
    }

    // One layer, by hand: h_t = max(0, W_ih C(w_t) + I h_{t-1} + 0), logits U h_t + b. A tanh cell would give other
    // values, and the sums grow past 1 where tanh could not.
    void stepIsReluOfInputPlusState()
    {
        torch::manual_seed(11);
        auto model = ModelFactory::createLanguageModel(irnn(1));
        model->eval();
        torch::NoGradGuard noGrad;
        auto params = model->named_parameters();
        {
            auto wih = params["rnn.weight_ih_l0"];
            wih.mul_(4.0); // larger inputs, so the ReLU's unbounded sums show
        }
        const auto C = params["tokens.weight"], wih = params["rnn.weight_ih_l0"], U = params["output.weight"],
                   b = params["output.bias"];
        const std::vector<std::int64_t> text = {1, 4, 2, 2, 0, 3};
        const auto logits = model->forward(torch::tensor(text, torch::kLong).unsqueeze(0))[0]; // [T, V]
        auto h = torch::zeros({6});
        bool aboveOne = false;
        for (std::size_t t = 0; t < text.size(); ++t) {
            h = torch::relu(torch::mv(wih, C[static_cast<std::int64_t>(text[t])]) + h);
            aboveOne = aboveOne || h.max().item<float>() > 1.0f;
            const auto expected = torch::mv(U, h) + b;
            QVERIFY2(torch::allclose(logits[static_cast<std::int64_t>(t)], expected, 1e-5, 1e-5),
                     qPrintable(QString::number(t)));
        }
        QVERIFY(aboveOne);
    }

    void unknownCellsAreRefusedByName()
    {
        auto c = irnn(1);
        c.cell = "relu";
        QCOMPARE(QString::fromStdString(c.validate()),
                 QStringLiteral("cell: unknown 'relu' (known: lstm, gru, rnn, irnn)"));
    }
};

QTEST_APPLESS_MAIN(TestIdentityRnn)
#include "test_identity_rnn.moc"
