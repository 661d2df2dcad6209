// The training step's parts checked by hand, without training a model: the step statistics read once per
// interval (deferred, as on a GPU) against those read every step, the capturable and the fused CPU Adam against LibTorch's
// Adam, and the ADADELTA update rule. Training on the synthetic data: test_training.
#include "core/nn/training/AdadeltaOptimizer.h"
#include "core/nn/training/CapturableAdam.h"
#include "core/nn/training/FusedCpuAdam.h"
#include "core/nn/training/StepStatistics.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace attnlab;

class TestTrainingStep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // What the loop reads once per interval on a GPU (deferred) equals what it reads every step on the CPU:
    // the same loss and metric sums, counts, and the first step whose loss was not finite with that loss.
    // The deferred path runs here on CPU tensors, as it runs on CUDA ones.
    void stepStatisticsDeferredEqualsImmediate()
    {
        const std::vector<double> losses = {1.25, 0.5, std::nan(""), 2.0, INFINITY, 0.25};
        const std::vector<double> metrics = {3, 4, 5, 6, 7, 8};
        StepStatistics now(false), later(true);
        auto finite = [&](std::size_t i) { return torch::tensor(i == 2 ? 0.0 : losses[i], torch::kFloat); };
        for (std::size_t i = 0; i < 3; ++i) { // an interval of finite losses: 1.25, 0.5, 0
            const auto read = now.add(static_cast<int>(i + 1), finite(i),
                                      torch::tensor(static_cast<std::int64_t>(metrics[i])), 32);
            QVERIFY(read.has_value());
            QVERIFY(!later.add(static_cast<int>(i + 1), finite(i),
                               torch::tensor(static_cast<std::int64_t>(metrics[i])), 32)
                         .has_value());
        }
        const auto a = now.flush(), b = later.flush();
        QCOMPARE(a.steps, 3);
        QCOMPARE(b.steps, 3);
        QCOMPARE(a.lossSum, 1.75);
        QCOMPARE(b.lossSum, 1.75);
        QCOMPARE(a.metricSum, 12.0);
        QCOMPARE(b.metricSum, 12.0);
        QCOMPARE(a.count, std::int64_t(96));
        QCOMPARE(b.count, std::int64_t(96));
        QCOMPARE(a.firstNonFiniteStep, 0);
        QCOMPARE(b.firstNonFiniteStep, 0);
        for (std::size_t i = 2; i < losses.size(); ++i) { // then NaN at step 3, 2.0, inf at step 5, 0.25
            now.add(static_cast<int>(i + 1), torch::tensor(losses[i]), torch::Tensor(), 1);
            later.add(static_cast<int>(i + 1), torch::tensor(losses[i]), torch::Tensor(), 1);
        }
        const auto c = now.flush(), d = later.flush();
        QCOMPARE(c.firstNonFiniteStep, 3);
        QCOMPARE(d.firstNonFiniteStep, 3);
        QVERIFY(std::isnan(c.firstNonFiniteLoss) && std::isnan(d.firstNonFiniteLoss));
        QCOMPARE(d.metricSum, 0.0);
        QVERIFY(later.empty() && now.empty());
    }

    // The capturable Adam against LibTorch's Adam on the same gradients: 30 steps of three
    // parameters of different shapes, one of which gets no gradient, with the learning rate changed halfway;
    // both its kernels (LibTorch 2.x's fused one, the default where it exists, and the per-parameter one).
    void capturableAdamMatchesLibTorchsAdam_data()
    {
        QTest::addColumn<bool>("fused");
        QTest::newRow("per parameter") << false;
        QTest::newRow("fused") << true;
    }
    void capturableAdamMatchesLibTorchsAdam()
    {
        QFETCH(bool, fused);
        if (fused && !CapturableAdam::fusedAvailable())
            QSKIP("this LibTorch (1.13) has no fused Adam with a tensor learning rate");
        torch::manual_seed(11);
        std::vector<torch::Tensor> ours = {torch::randn({4, 3}), torch::randn({3}), torch::randn({2, 2})};
        std::vector<torch::Tensor> theirs;
        for (auto& p : ours) {
            theirs.push_back(p.clone().requires_grad_(true));
            p.requires_grad_(true);
        }
        CapturableAdam capturable({ours[0], ours[1], ours[2]}, 0.01, 0.9, 0.999, 1e-8,
                                  fused ? CapturableAdam::Kernel::Fused : CapturableAdam::Kernel::PerParameter);
        torch::optim::Adam reference({theirs[0], theirs[1], theirs[2]}, torch::optim::AdamOptions(0.01));
        const auto target = torch::randn({4, 3});
        for (int step = 1; step <= 30; ++step) {
            if (step == 16) {
                capturable.setLearningRate(0.003);
                for (auto& group : reference.param_groups())
                    static_cast<torch::optim::AdamOptions&>(group.options()).lr(0.003);
            }
            for (auto* side : {&ours, &theirs}) {
                for (auto& p : *side)
                    if (p.grad().defined())
                        p.grad().zero_();
                // The third parameter never takes part: neither optimiser may move it.
                ((*side)[0] - target).pow(2).sum().add((*side)[1].sin().sum()).backward();
            }
            capturable.step();
            reference.step();
        }
        QCOMPARE(capturable.steps(), std::int64_t(30));
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const double difference = (ours[i] - theirs[i]).abs().max().item<double>();
            QVERIFY2(difference < 1e-6, qPrintable(QString("parameter %1: largest difference %2").arg(i).arg(difference)));
        }
        QVERIFY(torch::equal(ours[2], theirs[2]));
        // And it moved them (a step of 0.01 for 15 steps, then 0.003): not a test that passes by doing nothing.
        QVERIFY((ours[0] - target).abs().max().item<double>() < 5.0);
    }

    // The trainer's CPU Adam (one pass a parameter) against LibTorch's Adam on the same gradients: 30 steps
    // of a parameter larger than a thread's share (so both threads update it), a small one, and one that never gets
    // a gradient; the rate changed halfway; float32 and float64. Then the same run on one thread: equal bits.
    void fusedCpuAdamMatchesLibTorchsAdam_data()
    {
        QTest::addColumn<bool>("inDouble");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("float32") << false << 1e-6;
        QTest::newRow("float64") << true << 1e-13;
    }
    void fusedCpuAdamMatchesLibTorchsAdam()
    {
        QFETCH(bool, inDouble);
        QFETCH(double, tolerance);
        const auto dtype = inDouble ? torch::kDouble : torch::kFloat;
        std::int64_t fusedSteps = 0;
        auto run = [&](bool fused, int threads) {
            const int before = torch::get_num_threads();
            torch::set_num_threads(threads);
            torch::manual_seed(5);
            std::vector<torch::Tensor> p = {torch::randn({300, 250}, dtype), torch::randn({7}, dtype), torch::randn({2, 2}, dtype)};
            for (auto& x : p)
                x.requires_grad_(true);
            const auto target = torch::randn({300, 250}, dtype);
            FusedCpuAdam ours(p);
            torch::optim::Adam reference(p, torch::optim::AdamOptions(0.01));
            for (int step = 1; step <= 30; ++step) {
                const double rate = step < 16 ? 0.01 : 0.003;
                for (auto& group : reference.param_groups())
                    static_cast<torch::optim::AdamOptions&>(group.options()).lr(rate);
                for (auto& x : p)
                    if (x.grad().defined())
                        x.grad().zero_();
                (p[0] - target).pow(2).sum().add(p[1].sin().sum()).backward(); // p[2] never takes part
                if (fused)
                    ours.step(rate);
                else
                    reference.step();
            }
            torch::set_num_threads(before);
            if (fused)
                fusedSteps = ours.steps();
            return p;
        };
        const auto ours = run(true, 2), theirs = run(false, 2), oursOnOne = run(true, 1);
        QCOMPARE(fusedSteps, std::int64_t(30));
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const double difference = (ours[i] - theirs[i]).abs().max().item<double>();
            QVERIFY2(difference < tolerance, qPrintable(QString("parameter %1: largest difference %2").arg(i).arg(difference)));
            QVERIFY(torch::equal(ours[i], oursOnOne[i]));
        }
        torch::manual_seed(5);
        const auto start = torch::randn({300, 250}, dtype);
        QVERIFY(torch::equal(ours[2], theirs[2])); // untouched by both
        // It moved the large one by what 30 steps of 0.01 and 0.003 can: not a test that passes by doing nothing.
        const double moved = (ours[0] - start).abs().max().item<double>();
        QVERIFY2(moved > 0.1 && moved < 0.25, qPrintable(QString::number(moved)));
    }

    void adadeltaFollowsItsUpdateRule()
    {
        // One step on loss = 2p from p = 1: g = 2, E[g^2] = 0.05 * 4 = 0.2,
        // dx = -sqrt(0 + 1e-6) / sqrt(0.2 + 1e-6) * 2 = -0.00447212, so p = 0.99552788.
        auto p = torch::ones({1}, torch::requires_grad());
        AdadeltaOptimizer optimizer({p}, 1.0, 0.95, 1e-6);
        (2 * p).sum().backward();
        optimizer.step();
        QVERIFY(std::abs(p.item<double>() - 0.9955278752) < 1e-7);
        // Second step, same gradient: E[g^2] = 0.95*0.2 + 0.05*4 = 0.39, E[dx^2] = 0.05 * 0.00447212^2.
        optimizer.zeroGrad();
        (2 * p).sum().backward();
        optimizer.step();
        const double eDx2 = 0.05 * 0.0044721247747 * 0.0044721247747;
        const double dx2 = -std::sqrt(eDx2 + 1e-6) / std::sqrt(0.39 + 1e-6) * 2;
        QVERIFY(std::abs(p.item<double>() - (0.9955278752 + dx2)) < 1e-7);
    }
};

QTEST_APPLESS_MAIN(TestTrainingStep)
#include "test_training_step.moc"
