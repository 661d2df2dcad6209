#include "core/nn/training/ClassificationTask.h"

#include "core/data/Tokenizer.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/training/InputGradientProfile.h"
#include "core/results/ClassificationMetrics.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace attnlab {
namespace {

std::vector<TensorBatch> onDevice(const std::vector<Batch>& batches, const torch::Device& device)
{
    std::vector<TensorBatch> out;
    out.reserve(batches.size());
    for (const auto& b : batches)
        out.push_back(TensorBatch::from(b, device));
    return out;
}

} // namespace

ClassificationTask::ClassificationTask(std::shared_ptr<SequenceClassifier> model, const TextDataset& dataset,
                                       const Vocabulary& vocabulary, const torch::Device& device,
                                       const std::string& sampling, int batchSize, int maxLength,
                                       const std::vector<std::string>& probeTexts)
    : model_(std::move(model)), device_(device), train_(dataset.train, vocabulary, maxLength),
      sampler_(train_, sampling, batchSize), logitsWidth_(dataset.numClasses()),
      vocabulary_(vocabulary), classNames_(dataset.classNames), tokenizer_(dataset.tokenizer),
      lowercase_(dataset.lowercase), maxLength_(maxLength)
{
    auto note = [&](const BatchBuilder& split, const std::string& name) {
        if (split.truncatedCount() > 0)
            notes_.push_back(std::to_string(split.truncatedCount()) + " of " + std::to_string(split.exampleCount()) + " " +
                             name + " examples truncated to " + std::to_string(maxLength) + " tokens (max_length)");
    };
    note(train_, "training");
    const BatchBuilder dev(dataset.dev, vocabulary, maxLength), test(dataset.test, vocabulary, maxLength);
    note(dev, "dev");
    note(test, "test");
    // At most 256 sentences and kEvaluationTokens padded tokens a batch (see there).
    dev_ = onDevice(dev.evaluationBatches(256, kEvaluationTokens), device);
    test_ = onDevice(test.evaluationBatches(256, kEvaluationTokens), device);
    auto addProbe = [&](std::string label, std::vector<std::string> tokens) {
        if (maxLength > 0 && tokens.size() > static_cast<std::size_t>(maxLength))
            tokens.resize(static_cast<std::size_t>(maxLength));
        if (tokens.empty())
            return;
        std::vector<std::int64_t> ids;
        for (const auto& token : tokens)
            ids.push_back(vocabulary.id(token));
        probes_.push_back({std::move(label), std::move(tokens), TensorBatch::from(BatchBuilder::pad({ids}, {}), device)});
    };
    addProbe("probe sentence", dataset.probeTokens);
    if (!probeTexts.empty()) {
        const Tokenizer tokenizer = Tokenizer::forRun(dataset.tokenizer, dataset.lowercase, vocabulary);
        for (std::size_t i = 0; i < probeTexts.size(); ++i)
            addProbe("your probe " + std::to_string(i + 1), tokenizer.tokenize(probeTexts[i]));
    } else {
        // One short dev example per class: how attention differs between classes, at every evaluation.
        for (int c = 0; c < std::min(dataset.numClasses(), kDefaultClassProbes); ++c)
            for (const auto& e : dataset.dev)
                if (e.label == c && e.tokens.size() >= 4 && e.tokens.size() <= 20) {
                    addProbe("dev example, gold " + dataset.classNames[static_cast<std::size_t>(c)], e.tokens);
                    break;
                }
    }
}

TrainingTask::Step ClassificationTask::trainStep(std::mt19937_64& rng, int /*batchSize: the sampler's*/)
{
    const auto batch = TensorBatch::from(BatchBuilder::padToMultiple(sampler_.next(rng), lengthBucket_), device_);
    auto logits = model_->forward(batch.ids, batch.mask, batch.lengths);
    Step step;
    step.loss = torch::nn::functional::cross_entropy(logits, batch.labels);
    step.trainMetric = logits.argmax(1).eq(batch.labels).sum(); // read by StepStatistics, not here
    step.count = batch.labels.size(0);
    return step;
}

bool ClassificationTask::capturable() const
{
    return lengthBucket_ > 1 && model_->capturable();
}

TrainingTask::HostBatch ClassificationTask::drawBatch(std::mt19937_64& rng)
{
    const Batch batch = BatchBuilder::padToMultiple(sampler_.next(rng), lengthBucket_);
    const auto longs = torch::TensorOptions().dtype(torch::kLong);
    HostBatch host;
    host.tensors = {torch::tensor(batch.tokenIds, longs).view({batch.batchSize, batch.maxLength}),
                    torch::tensor(batch.mask, torch::TensorOptions().dtype(torch::kUInt8)).view({batch.batchSize, batch.maxLength}).to(torch::kBool),
                    torch::tensor(batch.labels, longs)};
    host.count = batch.batchSize;
    return host;
}

TrainingTask::Step ClassificationTask::stepOn(const std::vector<torch::Tensor>& deviceTensors)
{
    const auto& ids = deviceTensors.at(0);
    const auto& mask = deviceTensors.at(1);
    const auto& labels = deviceTensors.at(2);
    auto logits = model_->forward(ids, mask);
    Step step;
    step.loss = torch::nn::functional::cross_entropy(logits, labels);
    step.trainMetric = logits.argmax(1).eq(labels).sum();
    step.count = labels.size(0);
    return step;
}

std::vector<double> ClassificationTask::gradientByDistance()
{
    std::int64_t examples = 0;
    for (const auto& b : dev_)
        examples += b.ids.size(0);
    return InputGradientProfile::measure(*model_, dev_, InputGradientProfile::shareFor(examples, kGradientProfileExamples));
}

TrainingTask::Evaluation ClassificationTask::evaluate(bool test)
{
    torch::NoGradGuard noGrad;
    model_->eval();
    double lossSum = 0.0;
    int64_t count = 0;
    std::vector<int> truth, predicted;
    for (const auto& b : test ? test_ : dev_) {
        auto logits = model_->forward(b.ids, b.mask, b.lengths);
        lossSum += torch::nn::functional::cross_entropy(
                       logits, b.labels, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                       .item<double>();
        const auto labels = b.labels.to(torch::kCPU, torch::kInt).contiguous();
        const auto guesses = logits.argmax(1).to(torch::kCPU, torch::kInt).contiguous();
        truth.insert(truth.end(), labels.data_ptr<int>(), labels.data_ptr<int>() + labels.numel());
        predicted.insert(predicted.end(), guesses.data_ptr<int>(), guesses.data_ptr<int>() + guesses.numel());
        count += b.labels.size(0);
    }
    const auto metrics = ClassificationMetrics::fromPredictions(truth, predicted, static_cast<int>(logitsWidth_));
    Evaluation e;
    e.metrics = {{"loss", count ? lossSum / count : 0.0}, {"accuracy", metrics.accuracy()}, {"macro_f1", metrics.macroF1()}};
    e.score = metrics.accuracy();
    e.confusion = metrics.confusion();
    return e;
}

std::string ClassificationTask::checkpointMetadata() const
{
    nlohmann::json tokens = nlohmann::json::array();
    bool hasCapitals = false;
    for (std::int64_t id = 0; id < vocabulary_.size(); ++id) {
        const std::string& token = vocabulary_.token(id);
        for (unsigned char c : token)
            hasCapitals = hasCapitals || (c >= 'A' && c <= 'Z');
        tokens.push_back(token);
    }
    // A vocabulary without a capital letter was lowercased (by option or by its data, as the synthetic
    // sets are): typed text is lowercased too, or "Not" would be unknown to a model that knows "not".
    return nlohmann::json{{"task", "text"},
                          {"vocabulary", std::move(tokens)},
                          {"classes", classNames_},
                          {"tokenizer", tokenizer_},
                          {"lowercase", lowercase_ || !hasCapitals},
                          {"max_length", maxLength_}}
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<AttentionSnapshot> ClassificationTask::attention(int step)
{
    std::vector<AttentionSnapshot> snapshots;
    for (std::size_t p = 0; p < probes_.size(); ++p) {
        const Probe& probe = probes_[p];
        AttentionSnapshot snapshot;
        snapshot.step = step;
        snapshot.probe = static_cast<int>(p);
        snapshot.probeLabel = probe.label;
        snapshot.tokens = probe.tokens;
        torch::Tensor logits;
        snapshot.maps = model_->attentionOfFirst(probe.batch.ids, probe.batch.mask, &snapshot.pooling, &logits);
        if (!snapshot.pooling.empty())
            snapshot.poolingName = model_->poolingName();
        if (snapshot.empty())
            return {}; // a model without attention: nothing for any probe
        // The prediction at this step, for the explorer's timeline.
        const auto probabilities = torch::softmax(logits[0].to(torch::kCPU, torch::kFloat), 0).contiguous();
        snapshot.probabilities = hostFloats(probabilities);
        snapshot.classes = classNames_;
        snapshots.push_back(std::move(snapshot));
    }
    return snapshots;
}

} // namespace attnlab
