#pragma once
#include "core/data/TextExample.h"
#include "core/data/TranslationDataset.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

// Token <-> id. Id 0 is padding, id 1 the unknown token; real tokens start at 2.
class Vocabulary {
public:
    static constexpr std::int64_t kPad = 0;
    static constexpr std::int64_t kUnknown = 1;

    Vocabulary();
    static Vocabulary fromExamples(const std::vector<TextExample>& examples);
    // One side of a translation task's training pairs: tokens seen at least minCount times (2, as
    // bentrevett/pytorch-seq2seq's min_freq: a word met once is mostly a name or a typo, and keeping them doubles
    // Multi30k's tables), in order of first appearance; the target side has <bos> and <eos> at 2 and 3.
    static Vocabulary fromPairs(const std::vector<TranslationPair>& pairs, bool target, int minCount = 2);
    // A translation run's two vocabularies (source, target) from its training pairs: words seen twice, or every
    // subword piece (SentencePiece already chose them). The one rule the trainer and `describe` share.
    static std::pair<Vocabulary, Vocabulary> ofTranslation(const TranslationDataset& dataset);

    std::int64_t add(const std::string& token);
    std::int64_t id(const std::string& token) const;
    const std::string& token(std::int64_t id) const;
    std::int64_t size() const { return static_cast<std::int64_t>(tokens_.size()); }

private:
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, std::int64_t> ids_;
};

} // namespace attnlab
