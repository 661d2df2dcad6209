#pragma once
#include "core/data/LanguageModelDataset.h"

#include <cstdint>

namespace attnlab {

// The induction-heads task (Olsson et al. 2022; TransformerLens's repeated random tokens): each block is a
// sequence of `length` tokens drawn uniformly from `vocabulary` symbols, then the same sequence again. The first
// half cannot be predicted (its loss stays at ln V); the second half can, by a head that finds the earlier
// occurrence of the current token and copies the one after it. Deterministic by seed (mt19937_64, no std
// distribution), so every machine trains on the same blocks.
class SyntheticRepeat {
public:
    struct Options {
        std::uint64_t seed = 7;
        int length = 16;      // tokens before the repeat; a block is 2 x length
        int vocabulary = 50;  // distinct symbols "s0" .. "s<V-1>" (shown as words)
        int trainBlocks = 20000, devBlocks = 200, testBlocks = 200;
    };
    // Throws DataError naming the setting for sizes out of range (length 2..256, vocabulary 2..10000, blocks >= 1).
    static LanguageModelDataset generate(const Options& options);
};

} // namespace attnlab
