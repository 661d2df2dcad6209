// Gradients made visible: the per-layer gradient norms a run records (TrainConfig::gradientNorms) against a direct
// computation from the parameters' gradients, measured before clipping; the gradient by input distance against
// one example at a time; the switch's round trip and the metrics a run stores with it on and off.
#include "core/data/BatchBuilder.h"
#include "core/data/Vocabulary.h"
#include "core/data/readers/SyntheticSentiment.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ClassificationTask.h"
#include "core/nn/training/GradientNorms.h"
#include "core/nn/training/InputGradientProfile.h"
#include "core/nn/training/Optimizer.h"
#include "core/nn/training/TrainingLoop.h"
#include "core/platform/CancelToken.h"

#include <QtTest/QtTest>

#include <cmath>
#include <map>

using namespace attnlab;

namespace {

class MetricRecorder : public TrainingObserver {
public:
    std::vector<MetricPoint> metrics;
    void onStarted(const RunInfo&) override {}
    void onProgress(const ProgressEvent&) override {}
    void onMetric(const MetricPoint& p) override { metrics.push_back(p); }
    void onAttention(const AttentionSnapshot&) override {}
    void onFinished(const RunSummary&) override {}
    void onCheckpoint(const CheckpointRef&) override {}
    std::map<std::string, double> at(int step, const std::string& split) const
    {
        std::map<std::string, double> out;
        for (const auto& m : metrics)
            if (m.step == step && m.split == split)
                out[m.name] = m.value;
        return out;
    }
};

TextDataset smallData(int distance = 0)
{
    SyntheticSentiment::Options o;
    o.trainSize = 200;
    o.devSize = 60;
    o.testSize = 20;
    o.distance = distance;
    return SyntheticSentiment::generate(o);
}

ModelConfig modelFor(const std::string& name, const TextDataset& data, const Vocabulary& vocabulary)
{
    ModelConfig m;
    m.model = name;
    m.position = name == "ssan" || name == "transformer" ? "rpr" : "none";
    m.dModel = 16;
    m.layers = 2;
    m.heads = 2;
    m.ffHidden = 12;
    m.ffnHidden = 24;
    m.dropoutKeep = 1.0; // no dropout: the same numbers every pass
    m.vocabularySize = static_cast<int>(vocabulary.size());
    m.numClasses = data.numClasses();
    return m;
}

// sqrt(sum of squared gradient entries) over the parameters whose name maps to `layer` ("" = all).
double directNorm(torch::nn::Module& model, const std::string& layer)
{
    double squares = 0.0;
    for (const auto& item : model.named_parameters())
        if (item.value().requires_grad() && item.value().grad().defined() &&
            (layer.empty() || GradientNorms::layerOf(item.key()) == layer))
            squares += item.value().grad().to(torch::kDouble).pow(2).sum().item<double>();
    return std::sqrt(squares);
}

bool near(double a, double b, double relative = 1e-5)
{
    return std::abs(a - b) <= relative * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

} // namespace

class TestGradients : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layersAreTopLevelModulesAndStackedRecurrentLayers()
    {
        QCOMPARE(GradientNorms::layerOf("embedding.weight"), std::string("embedding"));
        QCOMPARE(GradientNorms::layerOf("block3.attention.query.weight"), std::string("layer3"));
        QCOMPARE(GradientNorms::layerOf("ffn_in12.weight"), std::string("layer12"));
        QCOMPARE(GradientNorms::layerOf("encoder_ffn_out1.bias"), std::string("encoder_layer1"));
        QCOMPARE(GradientNorms::layerOf("cross_attention0.query.weight"), std::string("decoder_layer0"));
        QCOMPARE(GradientNorms::layerOf("decoder_attention0.rel_keys"), std::string("decoder_layer0"));
        QCOMPARE(GradientNorms::layerOf("encoder.cell.weight_ih_l0"), std::string("encoder.l0"));
        QCOMPARE(GradientNorms::layerOf("encoder.cell.bias_hh_l12_reverse"), std::string("encoder.l12"));
        QCOMPARE(GradientNorms::layerOf("lstm.weight_hh_l1"), std::string("lstm.l1"));
        QCOMPARE(GradientNorms::layerOf("output.bias"), std::string("output"));
        QCOMPARE(GradientNorms::layerOf("attention_norm0.weight"), std::string("layer0"));
        QCOMPARE(GradientNorms::layerOf("rel_keys"), std::string("rel_keys"));
    }

    // The norms of one backward pass, per layer and in total, equal sqrt(sum g^2) over each layer's parameters
    // read one by one, and the total equals what clipping computes (and reads before it scales).
    void measuredNormsEqualADirectComputation()
    {
        const auto data = smallData();
        const auto vocabulary = Vocabulary::fromExamples(data.train);
        for (const std::string name : {"lstm", "gru", "ssan", "transformer", "cnn"}) {
            torch::manual_seed(3);
            auto model = ModelFactory::create(modelFor(name, data, vocabulary));
            ClassificationTask task(model, data, vocabulary, torch::kCPU, "random", 16);
            std::mt19937_64 rng(5);
            model->train();
            task.trainStep(rng, 16).loss.backward();
            const GradientNorms norms(*model);
            const auto measured = norms.measure();
            QCOMPARE(measured.size(), norms.layers().size() + 1);
            QCOMPARE(measured.front().first, std::string("grad_norm"));
            QVERIFY2(measured.front().second > 0.0, name.c_str());
            QVERIFY2(near(measured.front().second, directNorm(*model, "")), name.c_str());
            for (std::size_t i = 1; i < measured.size(); ++i) {
                QCOMPARE(measured[i].first, "grad_norm." + norms.layers()[i - 1]);
                QVERIFY2(near(measured[i].second, directNorm(*model, norms.layers()[i - 1])),
                         (name + " " + measured[i].first).c_str());
            }
            if (name == "lstm") { // two stacked layers told apart
                QVERIFY(std::find(norms.layers().begin(), norms.layers().end(), "encoder.l1") != norms.layers().end());
                QVERIFY(std::find(norms.layers().begin(), norms.layers().end(), "embedding") != norms.layers().end());
            }
            std::vector<torch::Tensor> trainable;
            for (const auto& p : model->parameters())
                trainable.push_back(p);
            QVERIFY(near(Optimizer::clipGradients(trainable, 1e-3).item<double>(), measured.front().second));
        }
    }

    // The profile of a padded batch equals each sentence measured alone: ||dL_i/de_t|| by d = length - 1 - t,
    // averaged over the sentences that reach d. Padding adds nothing; the parameters' gradients stay untouched.
    void gradientByDistanceEqualsOneSentenceAtATime()
    {
        const auto data = smallData(4);
        const auto vocabulary = Vocabulary::fromExamples(data.train);
        for (const std::string name : {"rnn", "lstm", "ssan"}) {
            torch::manual_seed(11);
            auto model = ModelFactory::create(modelFor(name, data, vocabulary));
            std::vector<std::vector<std::int64_t>> rows;
            std::vector<std::int64_t> labels;
            for (int i = 0; i < 5; ++i) {
                std::vector<std::int64_t> ids;
                for (const auto& token : data.dev[static_cast<std::size_t>(i)].tokens)
                    ids.push_back(vocabulary.id(token));
                rows.push_back(ids);
                labels.push_back(data.dev[static_cast<std::size_t>(i)].label);
            }
            const auto batch = TensorBatch::from(BatchBuilder::pad(rows, labels), torch::kCPU);
            const auto profile = InputGradientProfile::measure(*model, {batch});

            std::vector<double> sum, count;
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const auto n = static_cast<std::int64_t>(rows[i].size());
                const auto ids = torch::tensor(rows[i], torch::kLong).unsqueeze(0);
                auto embedded = model->embed(ids).detach().requires_grad_(true);
                const auto loss = torch::nn::functional::cross_entropy(
                    model->forwardEmbedded(embedded, torch::ones({1, n}, torch::kBool)), torch::tensor({labels[i]}));
                const auto g = torch::autograd::grad({loss}, {embedded})[0][0].norm(2, -1).to(torch::kDouble);
                sum.resize(std::max(sum.size(), static_cast<std::size_t>(n)), 0.0);
                count.resize(sum.size(), 0.0);
                for (std::int64_t t = 0; t < n; ++t) {
                    sum[static_cast<std::size_t>(n - 1 - t)] += g[t].item<double>();
                    count[static_cast<std::size_t>(n - 1 - t)] += 1.0;
                }
            }
            QCOMPARE(profile.size(), sum.size());
            for (std::size_t d = 0; d < sum.size(); ++d)
                QVERIFY2(near(profile[d], sum[d] / count[d], 1e-4),
                         qPrintable(QStringLiteral("%1 d=%2: %3 vs %4").arg(QString::fromStdString(name)).arg(d)
                                        .arg(profile[d]).arg(sum[d] / count[d])));
            for (const auto& p : model->parameters())
                QVERIFY(!p.grad().defined());
        }
        QCOMPARE(InputGradientProfile::shareFor(1000, 256), 0.256);
        QCOMPARE(InputGradientProfile::shareFor(100, 256), 1.0);
    }

    // A run with the switch on stores, at each log step, the norms of that step's gradient before clipping (the
    // same model and batch again, by hand), and at each evaluation the profile of its weights then; off, neither.
    void aRunRecordsTheStepsGradientBeforeClipping()
    {
        const auto data = smallData();
        const auto vocabulary = Vocabulary::fromExamples(data.train);
        TrainConfig config;
        config.model = modelFor("lstm", data, vocabulary);
        config.steps = 3;
        config.logEvery = 1;
        config.evalEvery = 3;
        config.batchSize = 16;
        config.clipNorm = 1e-3; // far below the norm: a norm read after clipping would be 1e-3
        config.seed = 9;
        config.threads = 1;
        config.gradientNorms = true;
        QVERIFY(TrainConfig::fromJson(config.toJson()).gradientNorms);
        QVERIFY(TrainConfig{}.toJson().find("gradient_norms") == std::string::npos);

        torch::manual_seed(4);
        auto model = ModelFactory::create(config.model);
        torch::manual_seed(4);
        auto twin = ModelFactory::create(config.model);
        ClassificationTask task(model, data, vocabulary, torch::kCPU, config.sampling, config.batchSize);
        ClassificationTask twinTask(twin, data, vocabulary, torch::kCPU, config.sampling, config.batchSize);
        MetricRecorder recorder;
        CancelToken cancel;
        const auto outcome = TrainingLoop::run(config, task, recorder, cancel, [] { return 0.0; });
        QCOMPARE(outcome.steps, 3);

        // Step 1 by hand: the loop's first batch comes from mt19937_64(seed).
        std::mt19937_64 rng(config.seed);
        twin->train();
        twinTask.trainStep(rng, config.batchSize).loss.backward();
        const auto first = recorder.at(1, "train");
        QVERIFY(first.count("grad_norm"));
        QVERIFY2(near(first.at("grad_norm"), directNorm(*twin, ""), 1e-4),
                 qPrintable(QStringLiteral("%1 vs %2").arg(first.at("grad_norm")).arg(directNorm(*twin, ""))));
        QVERIFY(first.at("grad_norm") > 100 * config.clipNorm);
        const GradientNorms twinNorms(*twin);
        for (const auto& layer : twinNorms.layers())
            QVERIFY2(near(first.at("grad_norm." + layer), directNorm(*twin, layer), 1e-4), layer.c_str());
        for (int step = 2; step <= 3; ++step)
            QVERIFY(recorder.at(step, "train").count("grad_norm.output"));

        // The evaluation's profile: the weights at step 3 are the model's now (one evaluation, so best = last).
        const auto dev = recorder.at(3, "dev");
        const auto profile = task.gradientByDistance();
        QVERIFY(profile.size() > 5);
        for (std::size_t d = 0; d < profile.size(); ++d)
            QVERIFY2(near(dev.at("grad_by_distance." + std::to_string(d)), profile[d], 1e-6), std::to_string(d).c_str());
        QVERIFY(!dev.count("grad_by_distance." + std::to_string(profile.size())));

        config.gradientNorms = false;
        MetricRecorder off;
        torch::manual_seed(4);
        auto plain = ModelFactory::create(config.model);
        ClassificationTask plainTask(plain, data, vocabulary, torch::kCPU, config.sampling, config.batchSize);
        TrainingLoop::run(config, plainTask, off, cancel, [] { return 0.0; });
        for (const auto& m : off.metrics)
            QVERIFY2(m.name.rfind("grad_", 0) != 0, m.name.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGradients)
#include "test_gradients.moc"
