#pragma once
#include "core/Batch.h"
#include "core/TextExample.h"
#include "core/Vocabulary.h"

#include <random>
#include <vector>

namespace attnlab {

// Turns examples into padded batches. Training batches are sampled at random (the thesis' protocol)
// from length buckets so that little compute is spent on padding; evaluation batches cover every
// example once, sorted by length.
class BatchBuilder {
public:
    BatchBuilder(const std::vector<TextExample>& examples, const Vocabulary& vocabulary);

    Batch randomBatch(std::mt19937_64& rng, int batchSize) const;
    std::vector<Batch> evaluationBatches(int batchSize) const;
    std::size_t exampleCount() const { return encoded_.size(); }

    static Batch pad(const std::vector<std::vector<std::int64_t>>& sequences, const std::vector<std::int64_t>& labels);

private:
    std::vector<std::vector<std::int64_t>> encoded_;
    std::vector<std::int64_t> labels_;
    std::vector<std::size_t> byLength_; // example indices sorted by length: neighbours form a bucket
};

} // namespace attnlab
