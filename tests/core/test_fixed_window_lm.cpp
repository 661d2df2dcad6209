// The fixed-window neural language model (Bengio et al. 2003): its equation by hand, the window it reads, and its
// first layer growing with that window as the thesis' Table 2.1 counts it.
#include "core/config/ModelConfig.h"
#include "core/nn/models/ModelFactory.h"
#include "core/training/TextGenerator.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace attnlab;

namespace {
ModelConfig windowConfig(int order, int dModel, int hidden, int vocabulary)
{
    ModelConfig c;
    c.model = "ffn-lm";
    c.position = "none";
    c.order = order;
    c.dModel = dModel;
    c.ffnHidden = hidden;
    c.vocabularySize = vocabulary;
    c.numClasses = 0;
    c.dropoutPoints = "none";
    return c;
}

torch::Tensor parameter(torch::nn::Module& model, const std::string& name)
{
    return model.named_parameters()[name];
}
} // namespace

class TestFixedWindowLm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // V = 4 tokens, d = 2, n = 3 (k = 2 tokens read), h = 2 hidden units, every weight set by hand:
    // y_t = b + U tanh(d + H [C(w_{t-1}); C(w_t)]), a zero vector before the text.
    void outputIsBengiosEquationByHand()
    {
        auto model = ModelFactory::createLanguageModel(windowConfig(3, 2, 2, 4));
        const double C[4][2] = {{0.5, -1.0}, {1.0, 0.25}, {-0.5, 0.75}, {0.2, 0.4}};
        const double H[2][4] = {{0.1, -0.2, 0.3, 0.4}, {-0.5, 0.6, 0.2, -0.1}}, dBias[2] = {0.05, -0.1};
        const double U[4][2] = {{1.0, -1.0}, {0.5, 0.5}, {-0.3, 0.8}, {0.0, 0.2}}, bBias[4] = {0.1, 0.0, -0.2, 0.3};
        {
            torch::NoGradGuard noGrad;
            auto set = [&](const std::string& name, const std::vector<double>& values) {
                auto p = parameter(*model, name);
                QCOMPARE(p.numel(), static_cast<std::int64_t>(values.size()));
                p.copy_(torch::tensor(values, torch::kDouble).reshape(p.sizes()).to(torch::kFloat));
            };
            set("tokens.weight", {C[0][0], C[0][1], C[1][0], C[1][1], C[2][0], C[2][1], C[3][0], C[3][1]});
            set("hidden.weight", {H[0][0], H[0][1], H[0][2], H[0][3], H[1][0], H[1][1], H[1][2], H[1][3]});
            set("hidden.bias", {dBias[0], dBias[1]});
            set("output.weight", {U[0][0], U[0][1], U[1][0], U[1][1], U[2][0], U[2][1], U[3][0], U[3][1]});
            set("output.bias", {bBias[0], bBias[1], bBias[2], bBias[3]});
        }
        model->eval();
        const std::vector<int> text = {1, 2, 3, 0};
        const auto logits = model->forward(torch::tensor({1, 2, 3, 0}, torch::kLong).unsqueeze(0)); // [1, 4, 4]
        QCOMPARE(logits.sizes().vec(), (std::vector<std::int64_t> {1, 4, 4}));
        for (int t = 0; t < 4; ++t) {
            double x[4] = {0, 0, 0, 0}; // [C(w_{t-1}); C(w_t)], the older one first
            if (t >= 1) {
                x[0] = C[text[t - 1]][0];
                x[1] = C[text[t - 1]][1];
            }
            x[2] = C[text[t]][0];
            x[3] = C[text[t]][1];
            double hidden[2];
            for (int j = 0; j < 2; ++j) {
                double a = dBias[j];
                for (int i = 0; i < 4; ++i)
                    a += H[j][i] * x[i];
                hidden[j] = std::tanh(a);
            }
            for (int w = 0; w < 4; ++w) {
                const double y = bBias[w] + U[w][0] * hidden[0] + U[w][1] * hidden[1];
                QVERIFY2(std::abs(logits[0][t][w].item<double>() - y) < 1e-6,
                         qPrintable(QStringLiteral("t %1, w %2: %3 against %4")
                                        .arg(t)
                                        .arg(w)
                                        .arg(logits[0][t][w].item<double>())
                                        .arg(y)));
            }
        }
    }

    // A token further back than n - 1 changes nothing; one inside the window changes the prediction.
    void onlyTheLastNMinusOneTokensCount()
    {
        torch::manual_seed(3);
        auto model = ModelFactory::createLanguageModel(windowConfig(4, 8, 16, 10));
        model->eval();
        torch::NoGradGuard noGrad;
        const auto a = torch::tensor({{5, 1, 2, 3, 4, 6}}, torch::kLong);
        auto b = a.clone(), c = a.clone();
        b[0][1] = 7; // position 1: outside the window of positions 4 and 5 (they read 2..4 and 3..5)
        c[0][3] = 7; // position 3: inside both
        const auto la = model->forward(a), lb = model->forward(b), lc = model->forward(c);
        QVERIFY(torch::equal(la.narrow(1, 4, 2), lb.narrow(1, 4, 2)));
        QVERIFY(!torch::allclose(la.select(1, 3), lb.select(1, 3))); // position 3 reads 1..3
        QVERIFY(!torch::allclose(la.select(1, 5), lc.select(1, 5)));
        QVERIFY(!torch::allclose(la.select(1, 4), lc.select(1, 4)));
    }

    // Table 2.1: 300-dimensional steps into a first hidden layer of 300 have N = 300 T 300 weights; the model's
    // whole count is V d + (k d h + h) + (h V + V), k = n - 1.
    void firstLayerGrowsWithTheWindowAsTable21()
    {
        const std::int64_t V = 65, d = 300, h = 300;
        for (int order = 2; order <= 10; ++order) {
            const std::int64_t k = order - 1;
            const auto described = TextGenerator::describe(windowConfig(order, 300, 300, 65));
            QCOMPARE(described.second, V * d + (k * d * h + h) + (h * V + V));
            auto model = ModelFactory::createLanguageModel(windowConfig(order, 300, 300, 65));
            QCOMPARE(parameter(*model, "hidden.weight").numel(), 300 * k * 300);
        }
        auto model = ModelFactory::createLanguageModel(windowConfig(6, 300, 300, 65)); // T = 5 steps
        QCOMPARE(parameter(*model, "hidden.weight").numel(), std::int64_t {450000}); // Table 2.1's first row
        QCOMPARE(TextGenerator::describe(windowConfig(2, 32, 0, 65)).second, // h = 0: 4 d_model
                 std::int64_t {65 * 32 + (32 * 128 + 128) + (128 * 65 + 65)});
    }

    void windowsOutsideTwoToTenAreRefusedByName()
    {
        for (int order : {0, 1, 11}) {
            const auto problem = QString::fromStdString(windowConfig(order, 8, 8, 5).validate());
            QVERIFY2(problem.startsWith(QStringLiteral("order: ")), qPrintable(problem));
            QVERIFY(problem.contains(QStringLiteral("(got %1)").arg(order)));
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TextGenerator::describe(windowConfig(order, 8, 8, 5)));
        }
        QVERIFY(windowConfig(10, 8, 8, 5).validate().empty());
    }
};

QTEST_APPLESS_MAIN(TestFixedWindowLm)
#include "test_fixed_window_lm.moc"
