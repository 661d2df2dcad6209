// Batching: random sampling of length-bucketed batches (the thesis) and shuffled epochs — every
// example exactly once per epoch, in length-bucketed batches, reproducible by seed; the sampling setting
// in TrainConfig and in a real training run.
#include "core/config/TrainConfig.h"
#include "core/data/BatchBuilder.h"
#include "core/data/DatasetCatalog.h"
#include "core/platform/CancelToken.h"
#include "core/training/Trainer.h"
#include "core/results/TrainingObserver.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <numeric>
#include <random>

using namespace attnlab;

namespace {

// n examples of random lengths 1..40; the label is the example's index, so batches say who is in them.
std::vector<TextExample> examples(std::size_t n)
{
    std::mt19937_64 rng(99);
    std::vector<TextExample> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        const int length = std::uniform_int_distribution<int>(1, 40)(rng);
        for (int t = 0; t < length; ++t)
            out[i].tokens.push_back("w" + std::to_string((i + static_cast<std::size_t>(t)) % 50));
        out[i].label = static_cast<int>(i);
    }
    return out;
}

std::vector<std::int64_t> labelsOfEpoch(BatchSampler& sampler, std::mt19937_64& rng, std::size_t batches,
                                        std::int64_t* padded = nullptr, std::int64_t* real = nullptr)
{
    std::vector<std::int64_t> labels;
    for (std::size_t b = 0; b < batches; ++b) {
        const Batch batch = sampler.next(rng);
        labels.insert(labels.end(), batch.labels.begin(), batch.labels.end());
        if (padded) *padded += batch.batchSize * batch.maxLength;
        if (real) *real += std::accumulate(batch.lengths.begin(), batch.lengths.end(), std::int64_t(0));
    }
    return labels;
}

class NullObserver : public TrainingObserver {
public:
    void onStarted(const RunInfo&) override {}
    void onProgress(const ProgressEvent&) override {}
    void onMetric(const MetricPoint&) override {}
    void onAttention(const AttentionSnapshot&) override {}
    void onFinished(const RunSummary&) override {}
};

} // namespace

class TestBatching : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void epochCoversEveryExampleOnce();
    void epochsAreReproducibleBySeed();
    void epochBatchesAreLengthBucketed();
    void randomSamplingIsUnchanged();
    void samplingSettingRoundTrips();
    void trainerRunsOnShuffledEpochs();
    void evaluationBatchesKeepToATokenBudget();
    void paddingToABucketKeepsEveryToken();
};

void TestBatching::epochCoversEveryExampleOnce()
{
    const auto data = examples(1003); // not a multiple of the batch size: the last batch is smaller
    const Vocabulary vocabulary = Vocabulary::fromExamples(data);
    const BatchBuilder builder(data, vocabulary);
    for (int batchSize : {1, 32, 50, 2000}) {
        std::mt19937_64 rng(7);
        const auto epoch = builder.epochBatches(rng, batchSize);
        QCOMPARE(epoch.size(), (data.size() + std::size_t(batchSize) - 1) / std::size_t(batchSize));
        std::vector<std::size_t> seen;
        for (const auto& batch : epoch) {
            QVERIFY(!batch.empty() && batch.size() <= std::size_t(batchSize));
            seen.insert(seen.end(), batch.begin(), batch.end());
        }
        std::sort(seen.begin(), seen.end());
        std::vector<std::size_t> all(data.size());
        std::iota(all.begin(), all.end(), 0);
        QCOMPARE(seen, all);
    }
    // Through the sampler: three epochs in a row, each a permutation of all examples, each in a new order.
    BatchSampler sampler(builder, "epochs", 32);
    std::mt19937_64 rng(11);
    const std::size_t perEpoch = (data.size() + 31) / 32;
    std::vector<std::vector<std::int64_t>> epochs;
    for (int e = 0; e < 3; ++e) {
        epochs.push_back(labelsOfEpoch(sampler, rng, perEpoch));
        QCOMPARE(sampler.completedEpochs(), e);
        auto sorted = epochs.back();
        std::sort(sorted.begin(), sorted.end());
        std::vector<std::int64_t> all(data.size());
        std::iota(all.begin(), all.end(), 0);
        QCOMPARE(sorted, all);
    }
    QVERIFY(epochs[0] != epochs[1]);
    QVERIFY(epochs[1] != epochs[2]);
    // Padding and masks follow the lengths, as for every batch.
    const Batch b = sampler.next(rng);
    for (std::int64_t row = 0; row < b.batchSize; ++row) {
        const auto label = b.labels[std::size_t(row)];
        QCOMPARE(b.lengths[std::size_t(row)], std::int64_t(data[std::size_t(label)].tokens.size()));
        for (std::int64_t t = 0; t < b.maxLength; ++t)
            QCOMPARE(int(b.mask[std::size_t(row * b.maxLength + t)]), int(t < b.lengths[std::size_t(row)]));
    }
}

void TestBatching::epochsAreReproducibleBySeed()
{
    const auto data = examples(500);
    const Vocabulary vocabulary = Vocabulary::fromExamples(data);
    const BatchBuilder builder(data, vocabulary);
    auto run = [&](std::uint64_t seed) {
        BatchSampler sampler(builder, "epochs", 16);
        std::mt19937_64 rng(seed);
        return labelsOfEpoch(sampler, rng, 80); // two and a half epochs
    };
    QCOMPARE(run(3), run(3));
    QVERIFY(run(3) != run(4));
}

void TestBatching::epochBatchesAreLengthBucketed()
{
    const auto data = examples(2000);
    const Vocabulary vocabulary = Vocabulary::fromExamples(data);
    const BatchBuilder builder(data, vocabulary);
    BatchSampler sampler(builder, "epochs", 32);
    std::mt19937_64 rng(5);
    std::int64_t padded = 0, real = 0;
    labelsOfEpoch(sampler, rng, (data.size() + 31) / 32, &padded, &real);
    // Plain shuffled batches of lengths uniform in 1..40 would be about 1.9x padding; buckets keep it small.
    const double overhead = double(padded) / double(real);
    qInfo("epochs of 32: %.3f padded positions per real token", overhead);
    QVERIFY2(overhead < 1.15, qPrintable(QString::number(overhead)));
}

// Dev/test batches: every example once, in length order, at most 256 sentences, and with a
// budget at most that many padded tokens (a single longer example alone); 0 = no budget, as before.
void TestBatching::evaluationBatchesKeepToATokenBudget()
{
    const auto data = examples(1003); // lengths 1..40
    const Vocabulary vocabulary = Vocabulary::fromExamples(data);
    const BatchBuilder builder(data, vocabulary);
    for (int budget : {0, 8192, 1000, 30}) {
        const auto batches = builder.evaluationBatches(256, budget);
        std::vector<std::int64_t> seen;
        std::int64_t previousLength = 0;
        for (const Batch& b : batches) {
            QVERIFY(b.batchSize >= 1 && b.batchSize <= 256);
            if (budget > 0)
                QVERIFY2(b.batchSize * b.maxLength <= budget || b.batchSize == 1,
                         qPrintable(QString("%1 x %2 > %3").arg(b.batchSize).arg(b.maxLength).arg(budget)));
            for (std::int64_t row = 0; row < b.batchSize; ++row) {
                QVERIFY(b.lengths[std::size_t(row)] >= previousLength); // in length order
                previousLength = b.lengths[std::size_t(row)];
            }
            seen.insert(seen.end(), b.labels.begin(), b.labels.end());
        }
        std::sort(seen.begin(), seen.end());
        std::vector<std::int64_t> all(data.size());
        std::iota(all.begin(), all.end(), 0);
        QCOMPARE(seen, all);
        if (budget == 0)
            QCOMPARE(batches.size(), std::size_t(4)); // 1003 = 3 x 256 + 235
        if (budget == 8192) // up to 32 tokens 256 a batch; the 40-token ones 204 at a time
            QVERIFY(batches.size() > 4 && batches.back().batchSize <= 8192 / 40);
        if (budget == 30) // one sentence of 31..40 tokens per batch
            QCOMPARE(batches.back().batchSize, std::int64_t(1));
    }
}

void TestBatching::randomSamplingIsUnchanged()
{
    // "random" is the thesis' protocol, exactly as BatchBuilder::randomBatch draws it.
    const auto data = examples(300);
    const Vocabulary vocabulary = Vocabulary::fromExamples(data);
    const BatchBuilder builder(data, vocabulary);
    BatchSampler sampler(builder, "random", 8);
    std::mt19937_64 a(21), b(21);
    for (int i = 0; i < 50; ++i)
        QCOMPARE(sampler.next(a).labels, builder.randomBatch(b, 8).labels);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BatchSampler(builder, "shuffle", 8));
}

void TestBatching::samplingSettingRoundTrips()
{
    TrainConfig c;
    QCOMPARE(c.sampling, std::string("random"));
    QVERIFY(c.validate().empty());
    c.sampling = "epochs";
    QVERIFY(c.validate().empty());
    QCOMPARE(TrainConfig::fromJson(c.toJson()).sampling, std::string("epochs"));
    QCOMPARE(TrainConfig::fromJson("{}").sampling, std::string("random")); // runs stored before the setting
    c.sampling = "bogus";
    QVERIFY(QString::fromStdString(c.validate()).contains("sampling"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TrainConfig::fromJson(R"({"sampling": 3})"));
}

void TestBatching::trainerRunsOnShuffledEpochs()
{
    DatasetOptions options;
    options.syntheticTrain = 200;
    options.syntheticDev = 50;
    options.syntheticTest = 50;
    const TextDataset dataset = DatasetCatalog::load("synthetic-sentiment", options);
    TrainConfig c;
    c.model.model = "ssan";
    c.model.position = "rpr";
    c.model.dModel = 16;
    c.device = "cpu";
    c.steps = 20; // 200 examples in batches of 16: one epoch and a half
    c.batchSize = 16;
    c.evalEvery = 10;
    c.sampling = "epochs";
    NullObserver observer;
    CancelToken cancel;
    const RunSummary summary = Trainer(c).run(dataset, observer, cancel);
    QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
    QCOMPARE(summary.steps, 20);
    c.sampling = "bogus";
    QVERIFY(QString::fromStdString(c.validate()).contains("sampling"));
}

// TrainConfig::capturableStep's buckets: lengths 3 and 5 padded to 8 (and 8 stays 8); every token, mask
// bit, length and label where it was, the rest padding with a zero mask.
void TestBatching::paddingToABucketKeepsEveryToken()
{
    const auto batch = BatchBuilder::pad({{5, 6, 7}, {8, 9, 10, 11, 12}}, {1, 0});
    const auto padded = BatchBuilder::padToMultiple(batch, 8);
    QCOMPARE(padded.maxLength, std::int64_t(8));
    QCOMPARE(padded.batchSize, std::int64_t(2));
    const std::vector<std::int64_t> ids = {5, 6, 7, 0, 0, 0, 0, 0, 8, 9, 10, 11, 12, 0, 0, 0};
    const std::vector<std::uint8_t> mask = {1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0};
    QVERIFY(padded.tokenIds == ids);
    QVERIFY(padded.mask == mask);
    QVERIFY(padded.lengths == batch.lengths);
    QVERIFY(padded.labels == batch.labels);
    const auto again = BatchBuilder::padToMultiple(padded, 8);
    QCOMPARE(again.maxLength, std::int64_t(8));
    QVERIFY(again.tokenIds == ids);
    QCOMPARE(BatchBuilder::padToMultiple(batch, 0).maxLength, std::int64_t(5)); // off: as it was
}

QTEST_GUILESS_MAIN(TestBatching)
#include "test_batching.moc"
