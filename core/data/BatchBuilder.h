#pragma once
#include "core/data/Batch.h"
#include "core/data/TextExample.h"
#include "core/data/Vocabulary.h"

#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace attnlab {

// Turns examples into padded batches. Training batches are sampled at random (the thesis' protocol)
// from length buckets so that little compute is spent on padding, or come from shuffled epochs (every
// example once per epoch, in length-bucketed batches); evaluation batches cover every example once,
// sorted by length. Examples longer than maxLength tokens are cut to their first maxLength: one
// 200,000-word line would otherwise make a batch (and self-attention's T x T maps) as wide as itself.
class BatchBuilder {
public:
    // maxLength 0 = no limit.
    BatchBuilder(const std::vector<TextExample>& examples, const Vocabulary& vocabulary, int maxLength = 0);

    Batch randomBatch(std::mt19937_64& rng, int batchSize) const;
    // One shuffled epoch as example indices: every example exactly once. The examples are shuffled, cut
    // into pools of kEpochPoolBatches batches, each pool sorted by length and cut into batches (so a batch
    // holds similar lengths), and the order of all batches shuffled. Reproducible from the rng's state.
    std::vector<std::vector<std::size_t>> epochBatches(std::mt19937_64& rng, int batchSize) const;
    Batch batchOf(const std::vector<std::size_t>& exampleIndices) const;
    static constexpr int kEpochPoolBatches = 20;
    // Every example once, in length order, in batches of at most batchSize examples and (maxTokens > 0) at
    // most maxTokens padded tokens: long sentences come in smaller batches, so evaluating needs no more
    // memory than training does (a Transformer's FFN at 256 x 56 tokens is 69 MB per activation).
    std::vector<Batch> evaluationBatches(int batchSize, int maxTokens = 0) const;
    std::size_t exampleCount() const { return encoded_.size(); }
    std::size_t truncatedCount() const { return truncated_; } // examples cut to maxLength

    static Batch pad(const std::vector<std::vector<std::int64_t>>& sequences, const std::vector<std::int64_t>& labels);
    // The batch with its padded length rounded up to a multiple of `tokens` (more padding, masked): a few
    // static shapes instead of one per length, as a captured CUDA graph needs (TrainConfig::capturableStep).
    static Batch padToMultiple(Batch batch, int tokens);

private:
    std::vector<std::vector<std::int64_t>> encoded_;
    std::vector<std::int64_t> labels_;
    std::vector<std::size_t> byLength_; // example indices sorted by length: neighbours form a bucket
    std::size_t truncated_ = 0;
};

// The training batches of a run, by TrainConfig::sampling: "random" draws every batch at random
// (BatchBuilder::randomBatch, the thesis' protocol); "epochs" walks shuffled epochs, starting the next
// one when the last batch of the current one is taken. Both are reproducible from the rng's seed.
class BatchSampler {
public:
    BatchSampler(const BatchBuilder& builder, const std::string& sampling, int batchSize); // throws on an unknown mode
    Batch next(std::mt19937_64& rng);
    int completedEpochs() const { return completedEpochs_; }
    static bool isKnown(const std::string& sampling) { return sampling == "random" || sampling == "epochs"; }

private:
    const BatchBuilder& builder_;
    bool epochs_;
    int batchSize_;
    std::vector<std::vector<std::size_t>> epoch_;
    std::size_t cursor_ = 0;
    int completedEpochs_ = -1; // 0 once the first epoch has started
};

} // namespace attnlab
