#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/data/BatchBuilder.h"
#include "core/data/TextDataset.h"
#include "core/data/Vocabulary.h"
#include "core/nn/layers/TensorConversions.h"
#include "core/nn/models/SequenceClassifier.h"
#include "core/nn/training/TrainingTask.h"

#include <memory>

namespace attnlab {

// Sentence classification: cross-entropy on length-bucketed batches, accuracy on dev and test (the best
// dev step is the most accurate), the probe inputs' attention at each evaluation: the dataset's probe
// sentence, then the user's probe texts (TrainConfig::probes) or, without them, the first dev example of
// 4 to 20 tokens of each class (at most kDefaultClassProbes classes).
class ClassificationTask : public TrainingTask {
public:
    // sampling: "random" batches (thesis) or shuffled "epochs" (BatchSampler), batchSize examples each;
    // every split's examples cut to maxLength tokens (ModelConfig::maxLength; 0 = no limit); probeTexts are
    // tokenised as the dataset's text was.
    ClassificationTask(std::shared_ptr<SequenceClassifier> model, const TextDataset& dataset, const Vocabulary& vocabulary,
                       const torch::Device& device, const std::string& sampling, int batchSize, int maxLength = 0,
                       const std::vector<std::string>& probeTexts = {});
    static constexpr int kDefaultClassProbes = 5;
    // Padded tokens in one dev/test batch (256 sentences of up to 8 tokens, 64 of 32): evaluating then needs
    // less memory than a training step. With 256 sentences a batch whatever their length, a Transformer's
    // peak was 565 MiB against its PyTorch twin's 462, and LSTM, ESSAN and Transformer runs were no faster
    // (docs/BENCHMARKS.md; 4096 and 1024 measured too).
    static constexpr int kEvaluationTokens = 2048;
    torch::nn::Module& module() override { return *model_; }
    std::int64_t trainSize() const override { return static_cast<std::int64_t>(train_.exampleCount()); }
    Step trainStep(std::mt19937_64& rng, int batchSize) override;
    // ids [B,T], mask [B,T] (bool), labels [B], with T a multiple of the length bucket.
    bool capturable() const override;
    HostBatch drawBatch(std::mt19937_64& rng) override;
    Step stepOn(const std::vector<torch::Tensor>& deviceTensors) override;
    std::string trainMetricName() const override { return "accuracy"; }
    Evaluation evaluate(bool test) override;
    std::vector<AttentionSnapshot> attention(int step) override;
    // On about kGradientProfileExamples dev sentences, spread over their lengths.
    std::vector<double> gradientByDistance() override;
    static constexpr int kGradientProfileExamples = 128;
    // "N of M training examples truncated to L tokens", and the same for dev and test, where any were.
    std::vector<std::string> notes() const override { return notes_; }
    // {"task":"text","vocabulary":[tokens by id],"classes":[...],"tokenizer":...,"lowercase":...,"max_length":N}
    std::string checkpointMetadata() const override;

    // Training batches padded to a multiple of `tokens` (TrainConfig::capturableStep); 0 or 1: to their longest.
    void padToMultipleOf(int tokens) { lengthBucket_ = tokens; }

private:
    int lengthBucket_ = 0;
    std::shared_ptr<SequenceClassifier> model_;
    torch::Device device_;
    BatchBuilder train_;
    BatchSampler sampler_; // after train_, which it reads
    std::vector<TensorBatch> dev_, test_;
    struct Probe {
        std::string label;
        std::vector<std::string> tokens;
        TensorBatch batch;
    };
    std::vector<Probe> probes_;
    std::int64_t logitsWidth_; // classes
    std::vector<std::string> notes_;
    Vocabulary vocabulary_;
    std::vector<std::string> classNames_;
    std::string tokenizer_;
    bool lowercase_;
    int maxLength_;
};

} // namespace attnlab
