#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// What chrF is computed with; the defaults are sacrebleu.metrics.CHRF()'s (chrF2). wordOrder 2 is chrF++.
struct ChrfOptions {
    int charOrder = 6;
    int wordOrder = 0;
    int beta = 2;               // recall weighs beta times as much as precision
    bool lowercase = false;
    bool whitespace = false;    // keep white space inside character n-grams (sacreBLEU removes it by default)
    bool epsSmoothing = false;  // chrF++.py's epsilon averaging instead of sacreBLEU 2's effective order
};

// Per order (character orders 1..charOrder, then word orders 1..wordOrder) three counts: the hypothesis'
// n-grams, the reference's and the matches (sacreBLEU's flat [hyp, ref, match, hyp, ref, match, ...]).
struct ChrfStatistics {
    std::vector<std::int64_t> counts;
    ChrfStatistics& operator+=(const ChrfStatistics& other);
};

struct ChrfResult {
    double score = 0.0;     // 0..100
    std::string name;       // "chrF2", "chrF2++" with word order 2
    std::string signature;  // "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0"
    // As sacreBLEU prints it: "chrF2 = 56.23", or "chrF2|nrefs:1|...|version:2.6.0 = 56.23".
    std::string format(bool withSignature = false) const;
};

// chrF (Popović 2015) and chrF++ (Popović 2017) exactly as sacrebleu.metrics.CHRF (2.x) computes them:
//   characters are Unicode code points; white space is removed first (unless whitespace is set);
//   word n-grams (chrF++) are of the white-space-split words with one leading or trailing ASCII punctuation
//   mark split off; each order's statistics count hypothesis n-grams (0 when the reference has none),
//   reference n-grams and clipped matches; with several references the one whose statistics give the best
//   F-score is kept (the first of equals);
//   the corpus sums the statistics, then with P and R the averages of the per-order precision and recall over
//   the orders where both sides have n-grams (the "effective order"):
//     chrF = 100 * (1 + beta^2) * P * R / (beta^2 * P + R), 0 when P + R = 0.
class ChrfScore {
public:
    explicit ChrfScore(ChrfOptions options = {}); // throws std::invalid_argument on orders < 0 or none at all
    const ChrfOptions& options() const { return options_; }

    ChrfResult corpusScore(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references) const;
    ChrfResult corpusScoreMultiRef(const std::vector<std::string>& hypotheses,
                                   const std::vector<std::vector<std::string>>& referencesPerSegment) const;
    ChrfResult sentenceScore(const std::string& hypothesis, const std::vector<std::string>& references) const;

    ChrfStatistics segmentStatistics(const std::string& hypothesis, const std::vector<std::string>& references) const;
    ChrfResult fromStatistics(const ChrfStatistics& statistics, int nrefs) const;
    double fScore(const ChrfStatistics& statistics) const; // 0..100, CHRF._compute_f_score
    std::string signature(int nrefs) const;                 // nrefs -1 is "var"
    std::string name() const;

private:
    ChrfOptions options_;
};

} // namespace attnlab
