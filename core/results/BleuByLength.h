#pragma once
#include "core/results/BleuScore.h"

#include <string>
#include <vector>

namespace attnlab {

// BLEU by source length (Bahdanau et al. 2015, Figure 2): a translation's sentences grouped by how many words their
// source has, each group scored as its own corpus with sacreBLEU's BLEU (BleuScore), beside the share translated
// exactly. Corpus statistics add up, so the groups' statistics summed are the whole split's BLEU: the last row.
class BleuByLength {
public:
    struct Bucket {
        int low = 1;
        int high = 0; // 0: no upper bound
        bool contains(int length) const { return length >= low && (high == 0 || length <= high); }
        std::string label() const; // "6-10", "31+", "7"
    };
    struct Row {
        std::string label;    // the bucket's, or "all"
        int low = 0;          // the bucket's shortest source (0 for "all")
        int sentences = 0;
        double bleu = 0.0;    // 0..100
        double exact = 0.0;   // share translated word for word, 0..1
        double sourceWords = 0.0; // mean
    };

    // "1-5,6-10,11-" (an open end: 11 and longer; a single number: that length only), ascending and not overlapping;
    // throws std::invalid_argument naming the part that is wrong.
    static std::vector<Bucket> parse(const std::string& spec);
    // 1-5, 6-10, ..., 26-30, 31+: Bahdanau et al.'s x axis in steps a reader can count.
    static std::vector<Bucket> defaults();
    // One row per bucket with sentences in it, then "all" (every sentence, in a bucket or not). The vectors are one
    // entry a sentence; throws std::invalid_argument when their sizes differ.
    static std::vector<Row> score(const std::vector<int>& sourceLengths, const std::vector<std::string>& hypotheses,
                                  const std::vector<std::string>& references, const std::vector<bool>& exact,
                                  const std::vector<Bucket>& buckets, const BleuScore& bleu = BleuScore());
};

} // namespace attnlab
