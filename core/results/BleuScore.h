#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Written by hand: no Debian package computes sacreBLEU's BLEU; tests/core/fixtures/translation holds its outputs.

// What BLEU is computed with; the defaults are sacrebleu.metrics.BLEU()'s.
struct BleuOptions {
    bool lowercase = false;
    std::string tokenize = "13a";     // "13a" (Tokenizer13a) or "none" (split on white space only)
    std::string smoothMethod = "exp"; // "exp" (mteval-v13a's), "floor" or "none"
    double smoothValue = 0.1;         // floor's epsilon (sacreBLEU's default 0.1); unused otherwise
    bool effectiveOrder = false;      // stop at the highest order the hypotheses have n-grams of
    int maxNgramOrder = 4;
};

// A corpus' sufficient statistics: lengths and, per order n = 1..N, the clipped matches and the hypothesis' n-grams.
// They add up over segments, which is all "corpus BLEU" means (not a mean of sentence scores).
struct BleuStatistics {
    std::int64_t hypLen = 0;
    std::int64_t refLen = 0;               // per segment, the reference length closest to the hypothesis'
    std::vector<std::int64_t> correct;     // size N
    std::vector<std::int64_t> total;       // size N
    BleuStatistics& operator+=(const BleuStatistics& other);
};

struct BleuResult {
    double score = 0.0;                    // 0..100
    std::vector<std::int64_t> counts;      // matched n-grams per order (sacreBLEU's counts)
    std::vector<std::int64_t> totals;      // hypothesis n-grams per order
    std::vector<double> precisions;        // per order, in percent
    double bp = 0.0;                       // brevity penalty
    double ratio = 0.0;                    // hypLen / refLen, 0 when refLen is 0
    std::int64_t hypLen = 0;
    std::int64_t refLen = 0;
    std::string signature;                 // "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    // As sacreBLEU prints it: "BLEU = 26.83 58.3/32.1/20.0/12.5 (BP = 1.000 ratio = 1.050 hyp_len = 21
    // ref_len = 20)"; with the signature, "BLEU|nrefs:1|...|version:2.6.0 = 26.83 ...".
    std::string format(bool withSignature = false) const;
};

// Corpus BLEU (Papineni et al. 2002) exactly as sacrebleu.metrics.BLEU (2.x) computes it:
//   each segment: lowercase (optional), strip trailing white space, tokenize, then count n-grams n = 1..N;
//   matches clipped by the largest count of that n-gram in any one reference; the reference length is the
//   one closest to the hypothesis' (the shorter on a tie);
//   corpus: sum the statistics, p_n = 100 * correct_n / total_n, BP = exp(1 - r/c) when c < r (0 when c = 0),
//   BLEU = BP * exp( (1/N) * sum_n log p_n ).
// Smoothing "exp" (NIST's): the k-th order with no match gets p_n = 100 / (2^k * total_n); no match at any order
// gives 0. With effectiveOrder, N is the highest order with total_n > 0 (what sentence_bleu uses).
class BleuScore {
public:
    explicit BleuScore(BleuOptions options = {}); // throws std::invalid_argument on an unknown option
    const BleuOptions& options() const { return options_; }

    // One reference per hypothesis; throws std::invalid_argument when the counts differ.
    BleuResult corpusScore(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references) const;
    // Several references per segment, referencesPerSegment[i] being hypothesis i's (at least one each; the
    // counts may differ between segments, then the signature says nrefs:var).
    BleuResult corpusScoreMultiRef(const std::vector<std::string>& hypotheses,
                                   const std::vector<std::vector<std::string>>& referencesPerSegment) const;
    // One segment as a corpus of one (sacreBLEU's sentence_score; sentence_bleu also sets effectiveOrder).
    BleuResult sentenceScore(const std::string& hypothesis, const std::vector<std::string>& references) const;

    // The pieces, for sums kept elsewhere (per evaluation batch, bootstrap resampling).
    BleuStatistics segmentStatistics(const std::string& hypothesis, const std::vector<std::string>& references) const;
    BleuResult fromStatistics(const BleuStatistics& statistics, int nrefs) const;
    // What a segment is counted on: lowercased (option), right-stripped, tokenized; tokens are its space-split words.
    std::string preprocess(const std::string& segment) const;
    // nrefs -1 is "var" (segments with different numbers of references), as sacreBLEU writes it.
    std::string signature(int nrefs) const;

    // The sacreBLEU whose numbers these are (the fixtures were made with it); the signatures end in it.
    static std::string sacrebleuVersion() { return "2.6.0"; }

private:
    BleuOptions options_;
};

} // namespace attnlab
