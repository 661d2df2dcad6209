#pragma once
#include "core/config/ModelConfig.h"
#include "core/data/Batch.h"
#include "core/results/AttentionSnapshot.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

// A torch-free handle on a sentence classifier (SSAN, LSTM): build it from a ModelConfig, count its
// parameters, run it on a batch. Used by the CLI's describe and by tests; the trainer works on the
// same modules directly.
class TextClassifier {
public:
    explicit TextClassifier(const ModelConfig& config, std::uint64_t seed = 1);
    ~TextClassifier();
    TextClassifier(const TextClassifier&) = delete;
    TextClassifier& operator=(const TextClassifier&) = delete;

    // Trainable parameters without the embedding table (the thesis' convention).
    std::int64_t trainableParameters() const;
    std::string summary() const;
    // Logits [batchSize x numClasses], row-major, in evaluation mode (no dropout).
    std::vector<float> logits(const Batch& batch) const;
    // Attention of the first sequence of the batch, cropped to its length; empty for models without.
    std::vector<AttentionMap> attention(const Batch& batch) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
