#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/results/AttentionSnapshot.h"
#include "core/results/SeriesForecast.h"

#include <torch/torch.h>

#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// What TrainingLoop trains: how to draw a batch and its loss, how to measure a split, what to show of the
// model's attention. Classification and regression differ only here.
class TrainingTask {
public:
    struct Step {
        torch::Tensor loss;         // scalar, with a graph
        torch::Tensor trainMetric;  // scalar, e.g. correct predictions in the batch; undefined for none
        std::int64_t count = 0;     // examples in the batch
    };
    struct Evaluation {
        std::vector<std::pair<std::string, double>> metrics; // "loss" first
        double score = 0.0;                                   // higher is better: picks the best dev step
        std::vector<std::vector<std::int64_t>> confusion;     // classification: [true][predicted]
        std::optional<SeriesForecast> forecast;               // regression, on test: every window's prediction
    };

    virtual ~TrainingTask() = default;
    virtual torch::nn::Module& module() = 0;
    virtual std::int64_t trainSize() const = 0; // training examples (windows): an epoch's size
    virtual Step trainStep(std::mt19937_64& rng, int batchSize) = 0;
    // The same step in two halves, for a step captured as a CUDA graph (CudaGraphStep): a batch drawn as host
    // tensors of a bucketed shape, and the step on those tensors once on the device. Only for a task whose model
    // reads nothing from the host (capturable()); trainStep stays the one path otherwise.
    struct HostBatch {
        std::vector<torch::Tensor> tensors; // on the host
        std::int64_t count = 0;             // examples in the batch
    };
    virtual bool capturable() const { return false; }
    virtual HostBatch drawBatch(std::mt19937_64& /*rng*/) { return {}; }
    virtual Step stepOn(const std::vector<torch::Tensor>& /*deviceTensors*/) { return {}; }
    // Name of the interval metric trainMetric/count is reported as ("accuracy"), or "" for none.
    virtual std::string trainMetricName() const = 0;
    virtual Evaluation evaluate(bool test) = 0; // dev, or test
    // Whether the test split is the dev split (tiny Shakespeare: nanoGPT's split has two): the test score is then the
    // best dev evaluation's, the same weights on the same text, not scored a second time.
    virtual bool testIsDev() const { return false; }
    // The mean norm of the loss's gradient at each input position by its distance from the last (index = distance;
    // InputGradientProfile), on dev, for TrainConfig::gradientNorms; empty where the task has no word inputs.
    // May leave the model in eval mode.
    virtual std::vector<double> gradientByDistance() { return {}; }
    // The probe inputs' attention at this evaluation, probe 0 first (empty for a model without attention).
    virtual std::vector<AttentionSnapshot> attention(int step) = 0;
    // What preparing the data changed that the user should know (examples truncated to max_length):
    // the trainer passes these on in RunInfo::notes.
    virtual std::vector<std::string> notes() const { return {}; }
    // What a saved model needs besides its weights to be used again without its dataset, as a JSON
    // object (ModelCheckpoint writes it into the archive): the vocabulary and class names of a text
    // task, the series names and scaling of a regression task.
    virtual std::string checkpointMetadata() const = 0;
};

} // namespace attnlab
