#include "core/data/Vocabulary.h"

#include <stdexcept>

namespace attnlab {

Vocabulary::Vocabulary()
{
    add("<pad>");
    add("<unk>");
}

Vocabulary Vocabulary::fromExamples(const std::vector<TextExample>& examples)
{
    Vocabulary vocabulary;
    for (const auto& example : examples)
        for (const auto& token : example.tokens)
            vocabulary.add(token);
    return vocabulary;
}

Vocabulary Vocabulary::fromPairs(const std::vector<TranslationPair>& pairs, bool target, int minCount)
{
    std::unordered_map<std::string, int> counts;
    std::vector<std::string> order;
    for (const auto& p : pairs)
        for (const auto& w : target ? p.target : p.source)
            if (counts[w]++ == 0)
                order.push_back(w);
    Vocabulary vocabulary;
    if (target) {
        vocabulary.add("<bos>");
        vocabulary.add("<eos>");
    }
    for (const auto& w : order)
        if (counts[w] >= minCount)
            vocabulary.add(w);
    return vocabulary;
}

std::int64_t Vocabulary::add(const std::string& token)
{
    auto it = ids_.find(token);
    if (it != ids_.end())
        return it->second;
    const auto id = static_cast<std::int64_t>(tokens_.size());
    tokens_.push_back(token);
    ids_.emplace(token, id);
    return id;
}

std::int64_t Vocabulary::id(const std::string& token) const
{
    auto it = ids_.find(token);
    return it == ids_.end() ? kUnknown : it->second;
}

const std::string& Vocabulary::token(std::int64_t id) const
{
    if (id < 0 || id >= size())
        throw std::out_of_range("token id " + std::to_string(id) + " outside the vocabulary");
    return tokens_[static_cast<std::size_t>(id)];
}

std::pair<Vocabulary, Vocabulary> Vocabulary::ofTranslation(const TranslationDataset& dataset)
{
    const int minCount = dataset.sourceSubwords.empty() ? 2 : 1;
    return {fromPairs(dataset.train, false, minCount), fromPairs(dataset.train, true, minCount)};
}

} // namespace attnlab
