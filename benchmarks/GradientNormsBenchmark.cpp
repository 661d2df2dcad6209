// What recording the gradient costs a training run (TrainConfig::gradientNorms; goal: at most 3% of a training
// step). Two measurements on the long-range sentences:
//  1. direct: the median time of a training step (forward, backward, Adam), of GradientNorms::measure (once per
//     log step) and of the gradient by word distance (once per evaluation), and what they add per step amortised
//     over log_every and eval_every;
//  2. whole runs through the Trainer, gradient_norms off and on, rounds in ABBA order: the ratio of the medians.
//
//   attnlab-bench-gradients [--model lstm] [--d-model 64] [--distance 12] [--steps 300] [--log-every 10]
//                           [--eval-every 100] [--rounds 5] [--threads 1]
#include "benchmarks/CommandLineOption.h"
#include "core/data/Vocabulary.h"
#include "core/data/readers/SyntheticSentiment.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ClassificationTask.h"
#include "core/nn/training/GradientNorms.h"
#include "core/nn/training/Optimizer.h"
#include "core/platform/CancelToken.h"
#include "core/training/Trainer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double seconds(const std::function<void()>& f)
{
    const auto start = Clock::now();
    f();
    return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    using namespace attnlab;
    using attnlab::bench::option;
    TrainConfig c;
    c.dataset = "synthetic-sentiment";
    c.distance = std::stoi(option(argc, argv, "--distance", "12"));
    c.model.model = option(argc, argv, "--model", "lstm");
    c.model.position = c.model.model == "ssan" || c.model.model == "transformer" ? "rpr" : "none";
    c.model.dModel = std::stoi(option(argc, argv, "--d-model", "64"));
    c.steps = std::stoi(option(argc, argv, "--steps", "300"));
    c.logEvery = std::stoi(option(argc, argv, "--log-every", "10"));
    c.evalEvery = std::stoi(option(argc, argv, "--eval-every", "100"));
    c.threads = std::stoi(option(argc, argv, "--threads", "1"));
    c.device = "cpu";
    const int rounds = std::stoi(option(argc, argv, "--rounds", "5"));
    at::set_num_threads(c.threads);

    SyntheticSentiment::Options o;
    o.distance = c.distance;
    const TextDataset data = SyntheticSentiment::generate(o);
    const Vocabulary vocabulary = Vocabulary::fromExamples(data.train);
    ModelConfig m = c.model;
    m.vocabularySize = static_cast<int>(vocabulary.size());
    m.numClasses = data.numClasses();
    torch::manual_seed(1);
    auto model = ModelFactory::create(m);
    ClassificationTask task(model, data, vocabulary, torch::kCPU, c.sampling, c.batchSize);
    std::vector<torch::Tensor> trainable;
    for (const auto& p : model->parameters())
        trainable.push_back(p);
    Optimizer optimizer(c, trainable);
    const GradientNorms norms(*model);
    std::mt19937_64 rng(1);
    std::vector<double> step, measure, profile, evaluation;
    model->train();
    for (int i = 0; i < 200; ++i) {
        step.push_back(seconds([&] {
            auto batch = task.trainStep(rng, c.batchSize);
            model->zero_grad(false);
            batch.loss.backward();
            optimizer.step(c.learningRate);
        }));
        measure.push_back(seconds([&] { norms.measure(); }));
    }
    for (int i = 0; i < 5; ++i) {
        evaluation.push_back(seconds([&] { task.evaluate(false); }));
        profile.push_back(seconds([&] { task.gradientByDistance(); }));
        model->train();
    }
    const double s = median(step), n = median(measure), p = median(profile), e = median(evaluation);
    std::printf("# %s d_model %d, long-range sentences (distance %d), batch %d, %d thread(s)\n", c.model.model.c_str(),
                c.model.dModel, c.distance, c.batchSize, c.threads);
    std::printf("training step %.3f ms (median of 200); GradientNorms::measure %.3f ms (%.2f%% of a step; %d layers)\n",
                1e3 * s, 1e3 * n, 100.0 * n / s, static_cast<int>(norms.layers().size()));
    std::printf("dev evaluation %.1f ms; gradient by distance %.1f ms (median of 5; %d of %zu dev sentences)\n", 1e3 * e,
                1e3 * p, ClassificationTask::kGradientProfileExamples, data.dev.size());
    std::printf("amortised: norms every %d steps %.3f%% of a step, the profile every %d steps %.2f%%; together %.2f%%\n",
                c.logEvery, 100.0 * n / s / c.logEvery, c.evalEvery, 100.0 * p / s / c.evalEvery,
                100.0 * (n / c.logEvery + p / c.evalEvery) / s);
    std::fflush(stdout);

    std::vector<double> off, on;
    std::printf("round  gradient_norms off (s)  on (s)\n");
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < 2; ++k) { // ABBA: whatever the first run of a pair pays falls on both sides
            TrainConfig run = c;
            run.gradientNorms = (r % 2 == 0) ? k == 1 : k == 0;
            TrainingObserver nothing;
            CancelToken cancel;
            (run.gradientNorms ? on : off).push_back(seconds([&] { Trainer(run).run(data, nothing, cancel); }));
        }
        std::printf("%5d  %22.3f  %6.3f\n", r + 1, off.back(), on.back());
        std::fflush(stdout);
    }
    std::printf("whole runs of %d steps: median %.3f s off, %.3f s on: %+.2f%%\n", c.steps, median(off), median(on),
                100.0 * (median(on) - median(off)) / median(off));
    return 0;
}
