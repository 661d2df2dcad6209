#include "core/data/readers/SyntheticSentiment.h"

#include "core/data/TranslationText.h"

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>

namespace attnlab {
namespace {

const std::vector<std::vector<std::string>> kSubjects = {
    {"the", "movie"}, {"the", "film"}, {"the", "plot"}, {"the", "acting"}, {"the", "story"},
    {"the", "cast"}, {"the", "ending"}, {"the", "music"}, {"it"}, {"this", "film"}};
const std::vector<std::string> kVerbs = {"is", "was", "feels", "seems"};
const std::vector<std::string> kPositive = {"good", "great", "fun", "charming", "clever", "moving", "funny", "beautiful"};
const std::vector<std::string> kNegative = {"bad", "boring", "dull", "awful", "silly", "weak", "bland", "tedious"};
const std::vector<std::string> kNeutral = {"long", "french", "familiar", "short", "old"};
const std::vector<std::string> kIntensifiers = {"very", "really", "extremely", "truly"};
const std::vector<std::string> kNegators = {"not", "never"};
const std::vector<std::string> kFillers = {"honestly", "overall", "frankly", "admittedly", "sometimes"};

bool contains(const std::vector<std::string>& words, const std::string& w)
{
    return std::find(words.begin(), words.end(), w) != words.end();
}

template <typename T>
const T& pick(const std::vector<T>& items, std::mt19937_64& rng)
{
    return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(rng)];
}

// Sentiment of one clause: polarity of its adjective, flipped by a negator (which also cancels
// intensity), "very" when intensified. Mapped onto SST's five classes.
int clauseLabel(const std::vector<std::string>& clause)
{
    int polarity = 0;
    bool negated = false;
    bool intensified = false;
    bool found = false;
    for (const auto& w : clause) {
        if (contains(kNegators, w)) negated = true;
        else if (contains(kIntensifiers, w)) intensified = true;
        else if (contains(kPositive, w)) { polarity = 1; found = true; }
        else if (contains(kNegative, w)) { polarity = -1; found = true; }
        else if (contains(kNeutral, w)) { polarity = 0; found = true; }
    }
    if (!found)
        throw std::invalid_argument("clause without an adjective");
    if (negated) {
        polarity = -polarity;
        intensified = false;
    }
    if (polarity == 0) return 2;
    if (polarity < 0) return intensified ? 0 : 1;
    return intensified ? 4 : 3;
}

std::vector<std::string> makeClause(std::mt19937_64& rng, int minFillers, int maxFillers, int distance)
{
    std::vector<std::string> clause;
    const int fillers = std::uniform_int_distribution<int>(minFillers, std::max(minFillers, maxFillers))(rng);
    for (int i = 0; i < fillers; ++i)
        clause.push_back(pick(kFillers, rng));
    for (const auto& w : pick(kSubjects, rng))
        clause.push_back(w);
    clause.push_back(pick(kVerbs, rng));
    std::uniform_real_distribution<double> u(0.0, 1.0);
    if (u(rng) < 0.35)
        clause.push_back(pick(kNegators, rng));
    if (u(rng) < 0.4)
        clause.push_back(pick(kIntensifiers, rng));
    for (int i = 0; i < distance; ++i)
        clause.push_back(pick(kFillers, rng));
    const double kind = u(rng);
    clause.push_back(kind < 0.42 ? pick(kPositive, rng) : kind < 0.84 ? pick(kNegative, rng) : pick(kNeutral, rng));
    return clause;
}

} // namespace

std::vector<std::string> SyntheticSentiment::classNames()
{
    return {"very negative", "negative", "neutral", "positive", "very positive"};
}

std::vector<std::string> SyntheticSentiment::probeSentence()
{
    return {"the", "plot", "is", "not", "good", "but", "the", "acting", "is", "really", "charming"};
}

int SyntheticSentiment::labelOf(const std::vector<std::string>& tokens)
{
    // Contrast: the clause after the last "but" decides.
    auto but = std::find(tokens.rbegin(), tokens.rend(), "but");
    if (but == tokens.rend())
        return clauseLabel(tokens);
    return clauseLabel(std::vector<std::string>(but.base(), tokens.end()));
}

std::size_t SyntheticSentiment::decidingClauseStart(const std::vector<std::string>& tokens)
{
    const auto but = std::find(tokens.rbegin(), tokens.rend(), "but");
    return but == tokens.rend() ? 0 : static_cast<std::size_t>(but.base() - tokens.begin());
}

TextDataset SyntheticSentiment::generate(const Options& options)
{
    if (options.trainSize < 1 || options.devSize < 1 || options.testSize < 1)
        throw std::invalid_argument("synthetic-sentiment: every split needs at least one example");
    if (options.minFillers < 0 || options.maxFillers < 0 || options.distance < 0)
        throw std::invalid_argument("synthetic-sentiment: fillers and distance must not be negative");
    std::mt19937_64 rng(options.seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::set<std::string> seen; // no sentence appears twice, so dev/test never leak from train

    auto sentence = [&]() {
        std::vector<std::string> tokens = makeClause(rng, options.minFillers, options.maxFillers, options.distance);
        if (options.orderDependent || u(rng) < 0.5) {
            tokens.push_back("but");
            auto second = makeClause(rng, options.minFillers, options.maxFillers, options.distance);
            tokens.insert(tokens.end(), second.begin(), second.end());
        }
        return tokens;
    };
    auto fill = [&](std::vector<TextExample>& split, int count) {
        int attempts = 0;
        while (static_cast<int>(split.size()) < count) {
            if (++attempts > count * 50)
                throw std::runtime_error("synthetic-sentiment: grammar too small for the requested size");
            auto tokens = sentence();
            if (!seen.insert(TranslationText::joined(tokens, false)).second)
                continue;
            split.push_back({tokens, labelOf(tokens)});
        }
    };

    TextDataset dataset;
    dataset.id = "synthetic-sentiment";
    dataset.name = options.orderDependent ? "Synthetic sentiment (order-dependent)" : "Synthetic sentiment";
    dataset.classNames = classNames();
    fill(dataset.train, options.trainSize);
    fill(dataset.dev, options.devSize);
    fill(dataset.test, options.testSize);
    dataset.probeTokens = probeSentence();
    return dataset;
}

} // namespace attnlab
