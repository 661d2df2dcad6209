#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/TrainConfig.h"
#include "core/data/LanguageModelDataset.h"
#include "core/nn/models/LanguageModel.h"
#include "core/nn/training/TrainingTask.h"

#include <memory>

namespace attnlab {

// Next-token prediction (a language model). Training draws windows of the context's length at random offsets of
// the training stream, as nanoGPT's get_batch does (for a dataset of blocks, whole blocks), and minimises the mean
// cross-entropy over every position. Evaluation reads a split whole, in consecutive windows of the context's
// length, each position predicting the next token (every token of the split but its first is scored once):
// loss (nats per token), bits per token (loss / ln 2; per character for a character model), perplexity exp(loss)
// and next-token accuracy; on a dataset of repeated blocks also the loss on each half (the induction-heads curve).
// The best dev step is the one of lowest loss. Each evaluation writes a sample from the dataset's prompt with the
// run's seed (TextGeneration, temperature 1), kept with the attention snapshot of that step.
class LanguageModelTask : public TrainingTask {
public:
    LanguageModelTask(std::shared_ptr<LanguageModel> model, const LanguageModelDataset& dataset, const torch::Device& device,
                      const TrainConfig& config);
    torch::nn::Module& module() override { return *model_; }
    std::int64_t trainSize() const override;
    Step trainStep(std::mt19937_64& rng, int batchSize) override;
    std::string trainMetricName() const override { return "accuracy"; }
    Evaluation evaluate(bool test) override;
    bool testIsDev() const override { return dataset_.test == dataset_.dev; }
    std::vector<AttentionSnapshot> attention(int step) override;
    // {"task":"language_model","vocabulary":[...],"unit","block","prompt"[,"subwords","subword_kind": pieces' model]}
    std::string checkpointMetadata() const override;
    int window() const { return window_; }

    static constexpr int kEvaluationRows = 64;   // windows scored at once
    static constexpr int kSnapshotTokens = 64;   // the sample's first tokens whose attention a snapshot keeps

private:
    std::shared_ptr<LanguageModel> model_;
    LanguageModelDataset dataset_;
    torch::Device device_;
    TrainConfig config_;
    torch::Tensor train_; // the training stream, long, on the device
    int window_;          // tokens a training window reads
};

} // namespace attnlab
