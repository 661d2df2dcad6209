#include "core/data/readers/SyntheticRepeat.h"

#include "core/data/DataError.h"

#include <algorithm>
#include <random>

namespace attnlab {

LanguageModelDataset SyntheticRepeat::generate(const Options& o)
{
    if (o.length < 4 || o.length > 256)
        throw DataError("synthetic-repeat", 0, "repeat_length must be 4 to 256 (got " + std::to_string(o.length) + ")");
    if (o.vocabulary < 2 || o.vocabulary > 10000)
        throw DataError("synthetic-repeat", 0, "repeat_vocabulary must be 2 to 10000 (got " + std::to_string(o.vocabulary) + ")");
    if (o.trainBlocks < 1 || o.devBlocks < 1 || o.testBlocks < 1 || o.trainBlocks > 10000000)
        throw DataError("synthetic-repeat", 0, "the synthetic sizes (train, dev, test) must be 1 or more blocks");
    LanguageModelDataset data;
    data.id = "synthetic-repeat";
    data.name = "Repeated random sequences";
    data.unit = "words";
    data.block = 2 * o.length;
    for (int v = 0; v < o.vocabulary; ++v)
        data.vocabulary.push_back("s" + std::to_string(v));
    // Ids are used as drawn; the vocabulary's order is by number, not sorted as text, so encode() searches it.
    std::mt19937_64 rng(o.seed);
    const int shortest = o.length / 2;
    data.repeatFrom = o.length + 1; // the copy's first token has nothing before it to match; the rest do
    data.repeatTo = o.length + shortest;
    auto draw = [&] { return static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(o.vocabulary)); };
    auto fill = [&](std::vector<std::int32_t>& split, int blocks) {
        split.reserve(static_cast<std::size_t>(blocks) * static_cast<std::size_t>(data.block));
        for (int b = 0; b < blocks; ++b) {
            const int l = shortest + static_cast<int>(rng() % static_cast<std::uint64_t>(o.length - shortest + 1));
            for (int i = 0; i < o.length - l; ++i)
                split.push_back(draw());
            const auto start = split.size();
            for (int i = 0; i < l; ++i)
                split.push_back(draw());
            for (int i = 0; i < l; ++i)
                split.push_back(split[start + static_cast<std::size_t>(i)]);
            for (int i = 0; i < o.length - l; ++i)
                split.push_back(draw());
        }
    };
    fill(data.train, o.trainBlocks);
    fill(data.dev, o.devBlocks);
    fill(data.test, o.testBlocks);
    // The samples' prompt: a sequence, then its start again, so an induction head has something to continue.
    const int shown = std::min({8, o.vocabulary - 1, o.length});
    for (int i = 1; i <= shown; ++i)
        data.prompt += (data.prompt.empty() ? "s" : " s") + std::to_string(i);
    for (int i = 1; i <= std::min(3, shown); ++i)
        data.prompt += " s" + std::to_string(i);
    return data;
}

} // namespace attnlab
