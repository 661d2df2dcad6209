#include "core/results/ChrfScore.h"

#include "core/results/BleuScore.h"
#include "core/results/Tokenizer13a.h"

#include <cstdio>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace attnlab {

namespace {

using Counts = std::unordered_map<std::u32string, std::int64_t>;

// CHRF._PUNCTS: Python's string.punctuation.
bool isAsciiPunctuation(char32_t c)
{
    return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
}

// helpers.extract_all_char_ngrams: orders 1..maxOrder over the code points, white space joined away first.
std::vector<Counts> characterNgrams(const std::u32string& text, int maxOrder, bool includeWhitespace)
{
    std::u32string line;
    if (includeWhitespace) {
        line = text;
    } else {
        for (char32_t c : text)
            if (!Tokenizer13a::isPythonSpace(c))
                line += c;
    }
    std::vector<Counts> counters(static_cast<std::size_t>(maxOrder));
    for (int n = 1; n <= maxOrder; ++n)
        for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= line.size(); ++i)
            ++counters[static_cast<std::size_t>(n - 1)][line.substr(i, static_cast<std::size_t>(n))];
    return counters;
}

// CHRF._remove_punctuation: "word," -> "word" ","; ",word" -> "," "word"; the end is looked at first, and only
// one mark goes ("(hi)" -> "(hi" ")"), as sacreBLEU splits them, for its scores to be ours.
std::vector<std::u32string> wordsWithoutPunctuation(const std::u32string& text)
{
    std::vector<std::u32string> words;
    for (const auto& w : Tokenizer13a::splitWhitespace(text)) {
        if (w.size() == 1) {
            words.push_back(w);
        } else if (isAsciiPunctuation(w.back())) {
            words.push_back(w.substr(0, w.size() - 1));
            words.push_back(w.substr(w.size() - 1));
        } else if (isAsciiPunctuation(w.front())) {
            words.push_back(w.substr(0, 1));
            words.push_back(w.substr(1));
        } else {
            words.push_back(w);
        }
    }
    return words;
}

// helpers.extract_word_ngrams: ' '.join of n consecutive words.
Counts wordNgrams(const std::vector<std::u32string>& words, int n)
{
    Counts counts;
    for (std::size_t i = 0; i + static_cast<std::size_t>(n) <= words.size(); ++i) {
        std::u32string key = words[i];
        for (int k = 1; k < n; ++k)
            key += U' ' + words[i + static_cast<std::size_t>(k)];
        ++counts[key];
    }
    return counts;
}

} // namespace

ChrfStatistics& ChrfStatistics::operator+=(const ChrfStatistics& other)
{
    if (counts.empty())
        counts.assign(other.counts.size(), 0);
    if (other.counts.size() != counts.size())
        throw std::invalid_argument("chrF statistics of different orders cannot be added");
    for (std::size_t i = 0; i < counts.size(); ++i)
        counts[i] += other.counts[i];
    return *this;
}

std::string ChrfResult::format(bool withSignature) const
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.2f", score); // Python's f"{score:.2f}"
    return (withSignature && !signature.empty() ? name + "|" + signature : name) + " = " + buffer;
}

ChrfScore::ChrfScore(ChrfOptions options) : options_(options)
{
    if (options_.charOrder < 0 || options_.wordOrder < 0 || options_.charOrder + options_.wordOrder == 0)
        throw std::invalid_argument("chrF: the character and word orders must be >= 0, and not both 0");
}

std::string ChrfScore::name() const
{
    // CHRFScore: "chrF" + beta + one '+' per word order.
    return "chrF" + std::to_string(options_.beta) + std::string(static_cast<std::size_t>(options_.wordOrder), '+');
}

std::string ChrfScore::signature(int nrefs) const
{
    return "nrefs:" + (nrefs < 0 ? std::string("var") : std::to_string(nrefs)) +
           "|case:" + (options_.lowercase ? "lc" : "mixed") + "|eff:" + (options_.epsSmoothing ? "no" : "yes") +
           "|nc:" + std::to_string(options_.charOrder) + "|nw:" + std::to_string(options_.wordOrder) +
           "|space:" + (options_.whitespace ? "yes" : "no") + "|version:" + BleuScore::sacrebleuVersion();
}

double ChrfScore::fScore(const ChrfStatistics& statistics) const
{
    // CHRF._compute_f_score, step for step (the same floating-point operations in the same order).
    const double eps = 1e-16;
    const double factor = static_cast<double>(options_.beta) * options_.beta;
    const int order = options_.charOrder + options_.wordOrder;
    if (statistics.counts.size() != static_cast<std::size_t>(3 * order))
        throw std::invalid_argument("chrF: statistics of " + std::to_string(statistics.counts.size() / 3) +
                                    " orders, expected " + std::to_string(order));
    double score = 0.0, averagePrecision = 0.0, averageRecall = 0.0;
    int effectiveOrder = 0;
    for (int i = 0; i < order; ++i) {
        const auto hyp = statistics.counts[static_cast<std::size_t>(3 * i)];
        const auto ref = statistics.counts[static_cast<std::size_t>(3 * i + 1)];
        const auto match = statistics.counts[static_cast<std::size_t>(3 * i + 2)];
        const double precision = hyp > 0 ? static_cast<double>(match) / static_cast<double>(hyp) : eps;
        const double recall = ref > 0 ? static_cast<double>(match) / static_cast<double>(ref) : eps;
        const double denominator = factor * precision + recall;
        score += denominator > 0 ? (1 + factor) * precision * recall / denominator : eps;
        if (hyp > 0 && ref > 0) {
            averagePrecision += precision;
            averageRecall += recall;
            ++effectiveOrder;
        }
    }
    if (options_.epsSmoothing)
        return 100 * score / order;
    if (effectiveOrder == 0) {
        averagePrecision = averageRecall = 0.0;
    } else {
        averagePrecision /= effectiveOrder;
        averageRecall /= effectiveOrder;
    }
    if (averagePrecision + averageRecall == 0.0)
        return 0.0;
    double f = (1 + factor) * averagePrecision * averageRecall;
    f /= factor * averagePrecision + averageRecall;
    return 100 * f;
}

ChrfStatistics ChrfScore::segmentStatistics(const std::string& hypothesis, const std::vector<std::string>& references) const
{
    if (references.empty())
        throw std::invalid_argument("chrF: a segment without a reference");
    auto prepare = [&](const std::string& segment) {
        const std::u32string text = Tokenizer13a::decodeUtf8(segment);
        return options_.lowercase ? Tokenizer13a::lower(text) : text;
    };
    auto ngramsOf = [&](const std::u32string& text) {
        std::vector<Counts> all = characterNgrams(text, options_.charOrder, options_.whitespace);
        if (options_.wordOrder > 0) {
            const auto words = wordsWithoutPunctuation(text);
            for (int n = 1; n <= options_.wordOrder; ++n)
                all.push_back(wordNgrams(words, n));
        }
        return all;
    };
    const std::vector<Counts> hyp = ngramsOf(prepare(hypothesis));
    ChrfStatistics best;
    double bestF = -1.0;
    for (const auto& reference : references) {
        const std::vector<Counts> ref = ngramsOf(prepare(reference));
        ChrfStatistics s;
        for (std::size_t i = 0; i < hyp.size(); ++i) {
            // CHRF._get_match_statistics
            std::int64_t hypCount = 0, refCount = 0, matches = 0;
            for (const auto& [ngram, count] : hyp[i]) {
                hypCount += count;
                const auto found = ref[i].find(ngram);
                if (found != ref[i].end())
                    matches += std::min(count, found->second);
            }
            for (const auto& entry : ref[i])
                refCount += entry.second;
            s.counts.push_back(ref[i].empty() ? 0 : hypCount); // no hits counted where the reference has none
            s.counts.push_back(refCount);
            s.counts.push_back(matches);
        }
        const double f = fScore(s);
        if (f > bestF)
            bestF = f, best = std::move(s);
    }
    return best;
}

ChrfResult ChrfScore::fromStatistics(const ChrfStatistics& statistics, int nrefs) const
{
    return {fScore(statistics), name(), signature(nrefs)};
}

ChrfResult ChrfScore::corpusScoreMultiRef(const std::vector<std::string>& hypotheses,
                                          const std::vector<std::vector<std::string>>& referencesPerSegment) const
{
    if (hypotheses.size() != referencesPerSegment.size())
        throw std::invalid_argument("chrF: " + std::to_string(hypotheses.size()) + " hypotheses but " +
                                    std::to_string(referencesPerSegment.size()) + " segments of references");
    ChrfStatistics sum;
    sum.counts.assign(static_cast<std::size_t>(3 * (options_.charOrder + options_.wordOrder)), 0);
    std::set<std::size_t> referenceCounts;
    for (std::size_t i = 0; i < hypotheses.size(); ++i) {
        sum += segmentStatistics(hypotheses[i], referencesPerSegment[i]);
        referenceCounts.insert(referencesPerSegment[i].size());
    }
    return fromStatistics(sum, referenceCounts.size() == 1 ? static_cast<int>(*referenceCounts.begin()) : -1);
}

ChrfResult ChrfScore::corpusScore(const std::vector<std::string>& hypotheses, const std::vector<std::string>& references) const
{
    if (hypotheses.size() != references.size())
        throw std::invalid_argument("chrF: " + std::to_string(hypotheses.size()) + " hypotheses but " +
                                    std::to_string(references.size()) + " references");
    std::vector<std::vector<std::string>> perSegment;
    perSegment.reserve(references.size());
    for (const auto& reference : references)
        perSegment.push_back({reference});
    return corpusScoreMultiRef(hypotheses, perSegment);
}

ChrfResult ChrfScore::sentenceScore(const std::string& hypothesis, const std::vector<std::string>& references) const
{
    return corpusScoreMultiRef({hypothesis}, {references});
}

} // namespace attnlab
