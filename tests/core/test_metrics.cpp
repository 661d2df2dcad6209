// Metrics, repeats, learning-rate schedules and the optimisers' update rules, each against values
// worked out by hand (the numbers in the comments).
#include "core/config/LearningRateSchedule.h"
#include "core/config/TrainConfig.h"
#include "core/nn/training/Optimizer.h"
#include "core/results/ClassificationMetrics.h"
#include "core/results/RepeatStatistics.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace attnlab;

class TestMetrics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void classificationMetricsByHand()
    {
        // truth 0 0 1 1 2 2, predicted 0 1 1 1 0 2: confusion [[1,1,0],[0,2,0],[1,0,1]].
        const auto m = ClassificationMetrics::fromPredictions({0, 0, 1, 1, 2, 2}, {0, 1, 1, 1, 0, 2}, 3);
        QCOMPARE(m.confusion(), (std::vector<std::vector<std::int64_t>>{{1, 1, 0}, {0, 2, 0}, {1, 0, 1}}));
        QCOMPARE(m.accuracy(), 4.0 / 6.0);
        QCOMPARE(m.precision(0), 0.5);     // 1 of the 2 predicted 0
        QCOMPARE(m.recall(0), 0.5);
        QCOMPARE(m.f1(0), 0.5);
        QCOMPARE(m.precision(1), 2.0 / 3.0); // 2 of the 3 predicted 1
        QCOMPARE(m.recall(1), 1.0);
        QVERIFY(std::abs(m.f1(1) - 0.8) < 1e-12);
        QCOMPARE(m.precision(2), 1.0);
        QCOMPARE(m.recall(2), 0.5);
        QVERIFY(std::abs(m.f1(2) - 2.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(m.macroF1() - (0.5 + 0.8 + 2.0 / 3.0) / 3.0) < 1e-12); // 0.6556
        // A class never predicted: precision, recall and F1 are 0, not NaN.
        const auto never = ClassificationMetrics::fromPredictions({0, 1}, {0, 0}, 2);
        QCOMPARE(never.precision(1), 0.0);
        QCOMPARE(never.f1(1), 0.0);
        QVERIFY(std::abs(never.macroF1() - (2.0 / 3.0) / 2.0) < 1e-12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ClassificationMetrics::fromPredictions({0, 3}, {0, 0}, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ClassificationMetrics::fromPredictions({0}, {0, 0}, 2));
    }

    void repeatsAggregateAsMeanAndSampleStd()
    {
        const RepeatStatistics s({0.5, 0.6, 0.7});
        QVERIFY(std::abs(s.mean() - 0.6) < 1e-12);
        QVERIFY(std::abs(s.sampleStd() - 0.1) < 1e-12); // n - 1 in the denominator
        QCOMPARE(s.best(true), 0.7);
        QCOMPARE(s.best(false), 0.5);
        QCOMPARE(QString::fromStdString(s.format(100, 1)), QString::fromUtf8("60.0 ± 10.0"));
        QCOMPARE(RepeatStatistics({0.42}).sampleStd(), 0.0);
    }

    void learningRateSchedules()
    {
        const LearningRateSchedule step({"step", 3, 0.1, 0, 10});
        QCOMPARE(step.factor(1), 1.0);
        QCOMPARE(step.factor(3), 1.0);
        QVERIFY(std::abs(step.factor(4) - 0.1) < 1e-15);
        QVERIFY(std::abs(step.factor(7) - 0.01) < 1e-15);
        const LearningRateSchedule warm({"constant", 1, 1, 4, 10});
        QCOMPARE(warm.factor(1), 0.25);
        QCOMPARE(warm.factor(3), 0.75);
        QCOMPARE(warm.factor(5), 1.0);
        const LearningRateSchedule cosine({"cosine", 1, 1, 2, 10});
        QCOMPARE(cosine.factor(2), 1.0);                       // end of warm-up
        QVERIFY(std::abs(cosine.factor(6) - 0.5) < 1e-12);     // half-way through the 8 cosine steps
        QVERIFY(std::abs(cosine.factor(10)) < 1e-12);
        // nanoGPT's floor: min_lr + (lr - min_lr) * cosine, here min_lr = lr / 10.
        const LearningRateSchedule floored({"cosine", 1, 1, 2, 10, 0.1});
        QCOMPARE(floored.factor(2), 1.0);
        QVERIFY(std::abs(floored.factor(6) - 0.55) < 1e-12);
        QVERIFY(std::abs(floored.factor(10) - 0.1) < 1e-12);
        QVERIFY(std::abs(floored.factor(12) - 0.1) < 1e-12); // past the end it stays at the floor
        QVERIFY(QString::fromStdString(LearningRateSchedule::validate({"linear", 1, 1, 0, 1})).startsWith("lr_schedule: unknown 'linear'"));
        QVERIFY(QString::fromStdString(LearningRateSchedule::validate({"step", 0, 0.1, 0, 1})).startsWith("lr_decay_every"));
    }

    void sgdWithMomentumUpdateRule()
    {
        TrainConfig c;
        c.optimizer = "sgd";
        c.learningRate = 0.1;
        c.momentum = 0.9;
        auto w = torch::tensor({1.0}, torch::requires_grad());
        Optimizer optimizer(c, {w});
        w.mutable_grad() = torch::tensor({2.0});
        optimizer.step(0.1); // buffer 2: w = 1 - 0.1 * 2
        QVERIFY(std::abs(w.item<double>() - 0.8) < 1e-6);
        optimizer.step(0.1); // buffer 0.9 * 2 + 2 = 3.8: w = 0.8 - 0.38
        QVERIFY(std::abs(w.item<double>() - 0.42) < 1e-6);
        optimizer.step(0.01); // the schedule's rate is used: buffer 5.42, w = 0.42 - 0.0542
        QVERIFY(std::abs(w.item<double>() - 0.3658) < 1e-6);
    }

    void adamAndDecoupledWeightDecay()
    {
        TrainConfig c;
        c.optimizer = "adam";
        c.weightDecay = 0.5;
        auto w = torch::tensor({1.0}, torch::requires_grad());
        Optimizer optimizer(c, {w});
        w.mutable_grad() = torch::tensor({0.0});
        optimizer.step(0.1); // Adam moves nothing on a zero gradient; decay: w (1 - 0.1 * 0.5)
        QVERIFY(std::abs(w.item<double>() - 0.95) < 1e-6);
        TrainConfig plain;
        auto v = torch::tensor({1.0}, torch::requires_grad());
        Optimizer adam(plain, {v});
        v.mutable_grad() = torch::tensor({2.0});
        adam.step(0.1); // first Adam step: lr * m_hat / sqrt(v_hat) = 0.1 * 2 / 2
        QVERIFY(std::abs(v.item<double>() - 0.9) < 1e-6);

        // nanoGPT's groups: decay on the matrices only (a bias or a LayerNorm's gain keeps its value).
        TrainConfig matrices;
        matrices.weightDecay = 0.5;
        matrices.weightDecayOn = "matrices";
        auto m = torch::ones({2, 2}, torch::requires_grad());
        auto b = torch::ones({2}, torch::requires_grad());
        Optimizer grouped(matrices, {m, b});
        m.mutable_grad() = torch::zeros({2, 2});
        b.mutable_grad() = torch::zeros({2});
        grouped.step(0.1);
        QVERIFY(torch::allclose(m, torch::full({2, 2}, 0.95)));
        QVERIFY(torch::allclose(b, torch::ones({2})));

        // Adam's beta2 (nanoGPT's 0.99): two steps of gradients 2 then 0 by hand.
        // step 1: m = 0.2, v = 0.04 -> m_hat = 2, v_hat = 4: w -= 0.1 * 2 / 2
        // step 2: m = 0.18, v = 0.0396 -> m_hat = 0.18 / 0.19, v_hat = 0.0396 / (1 - 0.99^2) = 1.99 (approximately)
        TrainConfig beta;
        beta.adamBeta2 = 0.99;
        auto u = torch::tensor({1.0}, torch::requires_grad());
        Optimizer adam99(beta, {u});
        u.mutable_grad() = torch::tensor({2.0});
        adam99.step(0.1);
        u.mutable_grad() = torch::tensor({0.0});
        adam99.step(0.1);
        const double mHat = 0.18 / (1 - 0.81), vHat = 0.0396 / (1 - 0.9801);
        QVERIFY(std::abs(u.item<double>() - (0.9 - 0.1 * mHat / (std::sqrt(vHat) + 1e-8))) < 1e-6);
        QVERIFY(QString::fromStdString([] { TrainConfig t; t.adamBeta2 = 1.0; return t.validate(); }()).startsWith("adam_beta2"));
        QVERIFY(QString::fromStdString([] { TrainConfig t; t.weightDecayOn = "biases"; return t.validate(); }()).startsWith("weight_decay_on"));
        QVERIFY(QString::fromStdString([] { TrainConfig t; t.minLearningRate = 1.0; return t.validate(); }()).startsWith("min_learning_rate"));
    }

    void l2PenaltyIsThesisEquation41()
    {
        // (1/n) sum w_i^2 over weight matrices only: (1 + 4 + 9 + 16) / 4; the bias does not count.
        auto weight = torch::tensor({{1.0, 2.0}, {3.0, 4.0}}, torch::requires_grad());
        auto bias = torch::tensor({10.0}, torch::requires_grad());
        auto penalty = Optimizer::l2Penalty({weight, bias});
        QCOMPARE(penalty.item<double>(), 7.5);
        (0.01 * penalty).backward(); // d/dw = 0.01 * 2 w / 4
        QVERIFY(torch::allclose(weight.grad(), torch::tensor({{0.005, 0.01}, {0.015, 0.02}})));
        QVERIFY(!bias.grad().defined());
    }

    void gradientClippingByGlobalNorm()
    {
        auto a = torch::tensor({0.0}, torch::requires_grad());
        auto b = torch::tensor({0.0}, torch::requires_grad());
        a.mutable_grad() = torch::tensor({3.0});
        b.mutable_grad() = torch::tensor({4.0});
        QVERIFY(std::abs(Optimizer::clipGradients({a, b}, 1.0).item<double>() - 5.0) < 1e-6);
        QVERIFY(std::abs(a.grad().item<double>() - 0.6) < 1e-6);
        QVERIFY(std::abs(b.grad().item<double>() - 0.8) < 1e-6);
    }

    void configRejectsWhatCannotWork()
    {
        { // the GPU's settings: a device's shape, TF32 only on CUDA, and the JSON of runs that never set them unchanged
            TrainConfig g;
            g.device = "cuda:1";
            QCOMPARE(g.validate(), std::string());
            g.device = "gpu0";
            QCOMPARE(g.validate(), std::string("device: unknown 'gpu0' (known: auto, cpu, cuda, cuda:N)"));
            g.device = "cpu";
            g.tf32 = true;
            QCOMPARE(g.validate(), std::string("tf32: TF32 matrix products are for CUDA devices; this run is on the CPU"));
            QVERIFY(TrainConfig{}.toJson().find("tf32") == std::string::npos);
            QVERIFY(TrainConfig{}.toJson().find("deterministic") == std::string::npos);
            g.deterministic = true;
            const TrainConfig back = TrainConfig::fromJson(g.toJson());
            QVERIFY(back.tf32 && back.deterministic);
        }
        TrainConfig c;
        c.optimizer = "rmsprop";
        QVERIFY(QString::fromStdString(c.validate()).startsWith("optimizer: unknown 'rmsprop' (known: adam, adadelta, sgd)"));
        c = TrainConfig{};
        c.lrSchedule = "step";
        c.lrDecayGamma = 2.0;
        QVERIFY(QString::fromStdString(c.validate()).startsWith("lr_decay_gamma"));
        c = TrainConfig{};
        c.device = "cpu";
        c.amp = true;
        QVERIFY(QString::fromStdString(c.validate()).startsWith("amp: mixed precision is for CUDA"));
        c = TrainConfig{};
        c.patience = -1;
        QVERIFY(QString::fromStdString(c.validate()).startsWith("patience"));
        // Every setting survives JSON, and an unknown key is named.
        TrainConfig full;
        full.optimizer = "sgd";
        full.momentum = 0.8;
        full.l2 = 0.0075;
        full.weightDecay = 0.01;
        full.lrSchedule = "cosine";
        full.warmupSteps = 7;
        full.clipNorm = 5;
        full.epochs = 3;
        full.patience = 4;
        full.model.heads = 15;
        full.model.dropoutPoints = "input,output";
        const auto back = TrainConfig::fromJson(full.toJson());
        QCOMPARE(back.toJson(), full.toJson());
        QCOMPARE(back.model.heads, 15);
        QCOMPARE(back.l2, 0.0075);
        QCOMPARE(TrainConfig::unknownKeys(R"({"optimiser": "adam", "steps": 3})"), std::vector<std::string>{"optimiser"});
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "test_metrics.moc"
