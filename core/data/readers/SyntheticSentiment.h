#pragma once
#include "core/data/TextDataset.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Generates the built-in sentiment dataset from a small grammar of opinions:
//   sentence := clause | clause "but" clause
//   clause   := [filler] subject verb ["not"] [intensifier] adjective
// The label (5 classes, as SST-fine) is the sentiment of the clause after "but" (contrast), else of the
// only clause; "not" flips polarity and removes intensity, an intensifier makes it "very".
// So the label depends on word order ("good but boring" vs "boring but good").
// Deterministic by seed: the same options give the same dataset on every machine.
class SyntheticSentiment {
public:
    struct Options {
        std::uint64_t seed = 7;
        int trainSize = 6000;
        int devSize = 600;
        int testSize = 600;
        // Order-dependent variant: every sentence has a contrast and each one's mirror image (clauses
        // swapped) is equally likely, so the bag of words alone cannot decide the label.
        bool orderDependent = false;
        int maxFillers = 2; // filler words ("honestly", "overall") inserted to vary length
        int minFillers = 0; // at least this many fillers at the start of each clause (longer sentences)
        // Filler words put right before each clause's adjective, so the adjective is this much further
        // from the negator, intensifier or "but" that decide the label with it (long-range dependencies).
        int distance = 0;
    };

    static TextDataset generate(const Options& options);
    static std::vector<std::string> classNames();
    // The fixed probe sentence whose attention is shown at every evaluation.
    static std::vector<std::string> probeSentence();
    // Label of a token sequence under the grammar's semantics (used to check generated data).
    static int labelOf(const std::vector<std::string>& tokens);
    // Where the clause that decides the label starts: the token after the last "but", 0 without one (the
    // whole sentence decides). The known answer an explanation of this data should point into.
    static std::size_t decidingClauseStart(const std::vector<std::string>& tokens);
};

} // namespace attnlab
