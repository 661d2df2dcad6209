#pragma once
#include "core/data/LanguageModelDataset.h"

#include <cstdint>

namespace attnlab {

// The induction-heads task (Olsson et al. 2022; TransformerLens's repeated random tokens), with the repeat's
// distance varied so that no head can find it by position alone. Each block of 2 L tokens (L = `length`) is
//   L - l random tokens, a random sequence of l tokens, the same l tokens again, L - l random tokens
// with l drawn from L/2 .. L per block; every token uniform over `vocabulary` symbols. The copy always starts at
// position L, but its source l positions earlier varies, so predicting it takes a head that finds where the
// current token occurred before and reads the token after it (an induction head: two layers of attention). The
// positions L+1 .. L + L/2 - 1 are always copies (repeatFrom, repeatTo); nothing before L can be predicted (its
// loss stays at ln V). Deterministic by seed (mt19937_64, no std distribution).
class SyntheticRepeat {
public:
    struct Options {
        std::uint64_t seed = 7;
        int length = 16;      // L: a block is 2 L tokens; the repeated sequence has L/2 .. L
        int vocabulary = 50;  // distinct symbols "s0" .. "s<V-1>" (shown as words)
        int trainBlocks = 20000, devBlocks = 200, testBlocks = 200;
    };
    // Throws DataError naming the setting for sizes out of range (length 4..256, vocabulary 2..10000, blocks >= 1).
    static LanguageModelDataset generate(const Options& options);
};

} // namespace attnlab
