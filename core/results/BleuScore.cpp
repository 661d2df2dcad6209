#include "core/results/BleuScore.h"

#include "core/results/DecimalText.h"
#include "core/results/Tokenizer13a.h"

#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace attnlab {

namespace {

using NgramCounts = std::unordered_map<std::string, std::int64_t>;

// sacrebleu.metrics.helpers.extract_all_word_ngrams: every n-gram, n = 1..order, of line.split(). A key is the
// words joined by single spaces: words hold no white space, so it names one tuple of words of one order.
NgramCounts wordNgrams(const std::string& line, int order, std::int64_t& length)
{
    std::vector<std::string> words;
    for (const auto& w : Tokenizer13a::splitWhitespace(Tokenizer13a::decodeUtf8(line)))
        words.push_back(Tokenizer13a::encodeUtf8(w));
    length = static_cast<std::int64_t>(words.size());
    NgramCounts counts;
    for (int n = 1; n <= order; ++n)
        for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= words.size(); ++i) {
            std::string key = words[i];
            for (int k = 1; k < n; ++k)
                key += ' ' + words[i + static_cast<std::size_t>(k)];
            ++counts[key];
        }
    return counts;
}

int orderOf(const std::string& key)
{
    int n = 1;
    for (char c : key)
        n += c == ' ';
    return n;
}

// utils.my_log: log, with log(0) floored to -9999999999 so that exp() of the mean gives 0 and not NaN.
double flooredLog(double x) { return x == 0.0 ? -9999999999.0 : std::log(x); }

} // namespace

BleuStatistics& BleuStatistics::operator+=(const BleuStatistics& other)
{
    if (correct.empty()) {
        correct.assign(other.correct.size(), 0);
        total.assign(other.total.size(), 0);
    }
    if (other.correct.size() != correct.size())
        throw std::invalid_argument("BLEU statistics of different n-gram orders cannot be added");
    hypLen += other.hypLen;
    refLen += other.refLen;
    for (std::size_t n = 0; n < correct.size(); ++n) {
        correct[n] += other.correct[n];
        total[n] += other.total[n];
    }
    return *this;
}

std::string BleuResult::format(bool withSignature) const
{
    std::string precisionText;
    for (std::size_t n = 0; n < precisions.size(); ++n)
        precisionText += (n ? "/" : "") + fixedDecimals(precisions[n], 1);
    std::string name = withSignature && !signature.empty() ? "BLEU|" + signature : "BLEU";
    return name + " = " + fixedDecimals(score, 2) + " " + precisionText + " (BP = " + fixedDecimals(bp, 3) + " ratio = " +
           fixedDecimals(ratio, 3) + " hyp_len = " + std::to_string(hypLen) + " ref_len = " + std::to_string(refLen) + ")";
}

BleuScore::BleuScore(BleuOptions options) : options_(std::move(options))
{
    if (options_.tokenize != "13a" && options_.tokenize != "none")
        throw std::invalid_argument("BLEU: unknown tokenize '" + options_.tokenize + "' (13a or none)");
    if (options_.smoothMethod != "exp" && options_.smoothMethod != "floor" && options_.smoothMethod != "none")
        throw std::invalid_argument("BLEU: unknown smoothing '" + options_.smoothMethod + "' (exp, floor or none)");
    if (options_.maxNgramOrder < 1)
        throw std::invalid_argument("BLEU: the n-gram order must be at least 1");
}

std::string BleuScore::preprocess(const std::string& segment) const
{
    std::u32string text = Tokenizer13a::decodeUtf8(segment);
    if (options_.lowercase)
        text = Tokenizer13a::lower(text);
    const std::string stripped = Tokenizer13a::encodeUtf8(Tokenizer13a::rstrip(text));
    return options_.tokenize == "13a" ? Tokenizer13a::tokenize(stripped) : stripped;
}

BleuStatistics BleuScore::segmentStatistics(const std::string& hypothesis, const std::vector<std::string>& references) const
{
    if (references.empty())
        throw std::invalid_argument("BLEU: a segment without a reference");
    const int order = options_.maxNgramOrder;
    // BLEU._extract_reference_info: each n-gram's largest count in any one reference, and every reference length.
    NgramCounts referenceCounts;
    std::vector<std::int64_t> referenceLengths;
    for (const auto& reference : references) {
        std::int64_t length = 0;
        for (const auto& [ngram, count] : wordNgrams(preprocess(reference), order, length)) {
            auto& best = referenceCounts[ngram];
            best = std::max(best, count);
        }
        referenceLengths.push_back(length);
    }
    BleuStatistics s;
    s.correct.assign(static_cast<std::size_t>(order), 0);
    s.total.assign(static_cast<std::size_t>(order), 0);
    const NgramCounts hypothesisCounts = wordNgrams(preprocess(hypothesis), order, s.hypLen);
    // BLEU._get_closest_ref_len: the nearest length, the shorter of two equally near.
    std::int64_t closestDiff = -1;
    s.refLen = -1;
    for (std::int64_t length : referenceLengths) {
        const std::int64_t diff = std::llabs(s.hypLen - length);
        if (closestDiff == -1 || diff < closestDiff)
            closestDiff = diff, s.refLen = length;
        else if (diff == closestDiff && length < s.refLen)
            s.refLen = length;
    }
    for (const auto& [ngram, count] : hypothesisCounts) {
        const auto n = static_cast<std::size_t>(orderOf(ngram) - 1);
        s.total[n] += count;
        const auto found = referenceCounts.find(ngram);
        if (found != referenceCounts.end())
            s.correct[n] += std::min(count, found->second);
    }
    return s;
}

BleuResult BleuScore::fromStatistics(const BleuStatistics& statistics, int nrefs) const
{
    // BLEU.compute_bleu, step for step (the same floating-point operations in the same order).
    const int order = options_.maxNgramOrder;
    BleuResult r;
    r.counts = statistics.correct;
    r.totals = statistics.total;
    r.counts.resize(static_cast<std::size_t>(order), 0);
    r.totals.resize(static_cast<std::size_t>(order), 0);
    r.hypLen = statistics.hypLen;
    r.refLen = statistics.refLen;
    r.ratio = r.refLen ? static_cast<double>(r.hypLen) / static_cast<double>(r.refLen) : 0.0;
    r.signature = signature(nrefs);
    r.bp = 1.0;
    if (r.hypLen < r.refLen)
        r.bp = r.hypLen > 0 ? std::exp(1.0 - static_cast<double>(r.refLen) / static_cast<double>(r.hypLen)) : 0.0;
    r.precisions.assign(static_cast<std::size_t>(order), 0.0);
    bool anyMatch = false;
    for (auto c : r.counts)
        anyMatch = anyMatch || c != 0;
    if (!anyMatch) // sacreBLEU #141: no match at any order is 0, whatever the smoothing
        return r;
    double smoothMteval = 1.0;
    int effectiveOrder = order;
    for (int n = 1; n <= order; ++n) {
        const auto i = static_cast<std::size_t>(n - 1);
        if (r.totals[i] == 0)
            break;
        if (options_.effectiveOrder)
            effectiveOrder = n;
        if (r.counts[i] == 0) {
            if (options_.smoothMethod == "exp") {
                smoothMteval *= 2;
                r.precisions[i] = 100.0 / (smoothMteval * static_cast<double>(r.totals[i]));
            } else if (options_.smoothMethod == "floor") {
                r.precisions[i] = 100.0 * options_.smoothValue / static_cast<double>(r.totals[i]);
            }
        } else {
            r.precisions[i] = 100.0 * static_cast<double>(r.counts[i]) / static_cast<double>(r.totals[i]);
        }
    }
    double logSum = 0.0;
    for (int n = 0; n < effectiveOrder; ++n)
        logSum += flooredLog(r.precisions[static_cast<std::size_t>(n)]);
    r.score = r.bp * std::exp(logSum / effectiveOrder);
    return r;
}

BleuResult BleuScore::corpusScoreMultiRef(const std::vector<std::string>& hypotheses,
                                          const std::vector<std::vector<std::string>>& referencesPerSegment) const
{
    if (hypotheses.size() != referencesPerSegment.size())
        throw std::invalid_argument("BLEU: " + std::to_string(hypotheses.size()) + " hypotheses but " +
                                    std::to_string(referencesPerSegment.size()) + " segments of references");
    BleuStatistics sum;
    sum.correct.assign(static_cast<std::size_t>(options_.maxNgramOrder), 0);
    sum.total.assign(static_cast<std::size_t>(options_.maxNgramOrder), 0);
    std::set<std::size_t> referenceCounts;
    for (std::size_t i = 0; i < hypotheses.size(); ++i) {
        sum += segmentStatistics(hypotheses[i], referencesPerSegment[i]);
        referenceCounts.insert(referencesPerSegment[i].size());
    }
    // Metric._cache_references: one count for all segments, or "var".
    const int nrefs = referenceCounts.size() == 1 ? static_cast<int>(*referenceCounts.begin()) : -1;
    return fromStatistics(sum, nrefs);
}

BleuResult BleuScore::corpusScore(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references) const
{
    if (hypotheses.size() != references.size())
        throw std::invalid_argument("BLEU: " + std::to_string(hypotheses.size()) + " hypotheses but " +
                                    std::to_string(references.size()) + " references");
    std::vector<std::vector<std::string>> perSegment;
    perSegment.reserve(references.size());
    for (const auto& reference : references)
        perSegment.push_back({reference});
    return corpusScoreMultiRef(hypotheses, perSegment);
}

BleuResult BleuScore::sentenceScore(const std::string& hypothesis, const std::vector<std::string>& references) const
{
    return corpusScoreMultiRef({hypothesis}, {references});
}

std::string BleuScore::signature(int nrefs) const
{
    // BLEUSignature.format(): the shared keys (nrefs; bs, seed, test... are unset), the metric's, version last.
    std::string smooth = options_.smoothMethod;
    if (smooth == "floor")
        smooth += "[" + fixedDecimals(options_.smoothValue, 2) + "]";
    return "nrefs:" + (nrefs < 0 ? std::string("var") : std::to_string(nrefs)) +
           "|case:" + (options_.lowercase ? "lc" : "mixed") + "|eff:" + (options_.effectiveOrder ? "yes" : "no") +
           "|tok:" + options_.tokenize + "|smooth:" + smooth + "|version:" + sacrebleuVersion();
}

} // namespace attnlab
