#include "core/data/BatchBuilder.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace attnlab {

BatchBuilder::BatchBuilder(const std::vector<TextExample>& examples, const Vocabulary& vocabulary, int maxLength)
{
    encoded_.reserve(examples.size());
    for (const auto& example : examples) {
        std::size_t length = example.tokens.size();
        if (maxLength > 0 && length > static_cast<std::size_t>(maxLength)) {
            length = static_cast<std::size_t>(maxLength);
            ++truncated_;
        }
        std::vector<std::int64_t> ids;
        ids.reserve(length);
        for (std::size_t t = 0; t < length; ++t)
            ids.push_back(vocabulary.id(example.tokens[t]));
        if (ids.empty())
            ids.push_back(Vocabulary::kUnknown); // an empty sentence still needs one position to pool
        encoded_.push_back(std::move(ids));
        labels_.push_back(example.label);
    }
    byLength_.resize(encoded_.size());
    std::iota(byLength_.begin(), byLength_.end(), 0);
    std::stable_sort(byLength_.begin(), byLength_.end(),
                     [this](std::size_t a, std::size_t b) { return encoded_[a].size() < encoded_[b].size(); });
}

Batch BatchBuilder::pad(const std::vector<std::vector<std::int64_t>>& sequences, const std::vector<std::int64_t>& labels)
{
    Batch batch;
    batch.batchSize = static_cast<std::int64_t>(sequences.size());
    for (const auto& s : sequences)
        batch.maxLength = std::max<std::int64_t>(batch.maxLength, static_cast<std::int64_t>(s.size()));
    batch.tokenIds.assign(static_cast<std::size_t>(batch.batchSize * batch.maxLength), Vocabulary::kPad);
    batch.mask.assign(batch.tokenIds.size(), 0);
    for (std::size_t b = 0; b < sequences.size(); ++b) {
        const auto& s = sequences[b];
        for (std::size_t t = 0; t < s.size(); ++t) {
            batch.tokenIds[b * batch.maxLength + t] = s[t];
            batch.mask[b * batch.maxLength + t] = 1;
        }
        batch.lengths.push_back(static_cast<std::int64_t>(s.size()));
    }
    batch.labels = labels;
    return batch;
}

Batch BatchBuilder::padToMultiple(Batch batch, int tokens)
{
    if (tokens <= 1 || batch.maxLength % tokens == 0)
        return batch;
    const std::int64_t length = (batch.maxLength / tokens + 1) * tokens;
    std::vector<std::int64_t> ids(static_cast<std::size_t>(batch.batchSize * length), Vocabulary::kPad);
    std::vector<std::uint8_t> mask(ids.size(), 0);
    for (std::int64_t b = 0; b < batch.batchSize; ++b)
        for (std::int64_t t = 0; t < batch.maxLength; ++t) {
            const auto from = static_cast<std::size_t>(b * batch.maxLength + t), to = static_cast<std::size_t>(b * length + t);
            ids[to] = batch.tokenIds[from];
            mask[to] = batch.mask[from];
        }
    batch.tokenIds = std::move(ids);
    batch.mask = std::move(mask);
    batch.maxLength = length;
    return batch;
}

Batch BatchBuilder::randomBatch(std::mt19937_64& rng, int batchSize) const
{
    if (encoded_.empty())
        throw std::runtime_error("cannot sample a batch from an empty split");
    // Bucket = a window of neighbours in length order around a random anchor: batches are random
    // (every example equally likely as anchor) yet similar in length, so padding stays small.
    const std::size_t n = byLength_.size();
    const std::size_t size = std::min<std::size_t>(static_cast<std::size_t>(batchSize), n);
    const std::size_t window = std::min<std::size_t>(n, 3 * size);
    const std::size_t anchor = std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    std::size_t start = anchor >= window / 2 ? anchor - window / 2 : 0;
    start = std::min(start, n - window);
    std::vector<std::size_t> picks(window);
    std::iota(picks.begin(), picks.end(), start);
    std::shuffle(picks.begin(), picks.end(), rng);
    picks.resize(size);

    std::vector<std::vector<std::int64_t>> sequences;
    std::vector<std::int64_t> labels;
    for (std::size_t p : picks) {
        sequences.push_back(encoded_[byLength_[p]]);
        labels.push_back(labels_[byLength_[p]]);
    }
    return pad(sequences, labels);
}

std::vector<std::vector<std::size_t>> BatchBuilder::epochBatches(std::mt19937_64& rng, int batchSize) const
{
    if (encoded_.empty())
        throw std::runtime_error("cannot make an epoch of an empty split");
    if (batchSize < 1)
        throw std::invalid_argument("batch size must be at least 1");
    const std::size_t size = static_cast<std::size_t>(batchSize);
    std::vector<std::size_t> order(encoded_.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::vector<std::size_t>> batches;
    const std::size_t pool = size * static_cast<std::size_t>(kEpochPoolBatches);
    const auto at = [&order](std::size_t i) { return order.begin() + static_cast<std::ptrdiff_t>(i); };
    for (std::size_t begin = 0; begin < order.size(); begin += pool) {
        const std::size_t end = std::min(order.size(), begin + pool);
        // Stable: equal lengths keep their shuffled order, so ties are random too.
        std::stable_sort(at(begin), at(end),
                         [this](std::size_t a, std::size_t b) { return encoded_[a].size() < encoded_[b].size(); });
        for (std::size_t b = begin; b < end; b += size)
            batches.emplace_back(at(b), at(std::min(end, b + size)));
    }
    std::shuffle(batches.begin(), batches.end(), rng);
    return batches;
}

Batch BatchBuilder::batchOf(const std::vector<std::size_t>& exampleIndices) const
{
    std::vector<std::vector<std::int64_t>> sequences;
    std::vector<std::int64_t> labels;
    for (std::size_t i : exampleIndices) {
        if (i >= encoded_.size())
            throw std::out_of_range("example index " + std::to_string(i) + " out of range");
        sequences.push_back(encoded_[i]);
        labels.push_back(labels_[i]);
    }
    return pad(sequences, labels);
}

BatchSampler::BatchSampler(const BatchBuilder& builder, const std::string& sampling, int batchSize)
    : builder_(builder), epochs_(sampling == "epochs"), batchSize_(batchSize)
{
    if (!isKnown(sampling))
        throw std::invalid_argument("sampling: unknown '" + sampling + "' (known: random, epochs)");
}

Batch BatchSampler::next(std::mt19937_64& rng)
{
    if (!epochs_)
        return builder_.randomBatch(rng, batchSize_);
    if (cursor_ >= epoch_.size()) {
        epoch_ = builder_.epochBatches(rng, batchSize_);
        cursor_ = 0;
        ++completedEpochs_;
    }
    return builder_.batchOf(epoch_[cursor_++]);
}

std::vector<Batch> BatchBuilder::evaluationBatches(int batchSize, int maxTokens) const
{
    std::vector<Batch> batches;
    for (std::size_t begin = 0, end = 0; begin < byLength_.size(); begin = end) {
        end = std::min(byLength_.size(), begin + static_cast<std::size_t>(batchSize));
        if (maxTokens > 0) // sorted by length: a batch's padded length is its last example's
            while (end > begin + 1 && (end - begin) * std::max<std::size_t>(1, encoded_[byLength_[end - 1]].size()) >
                                          static_cast<std::size_t>(maxTokens))
                --end;
        std::vector<std::vector<std::int64_t>> sequences;
        std::vector<std::int64_t> labels;
        for (std::size_t p = begin; p < end; ++p) {
            sequences.push_back(encoded_[byLength_[p]]);
            labels.push_back(labels_[byLength_[p]]);
        }
        batches.push_back(pad(sequences, labels));
    }
    return batches;
}

} // namespace attnlab
