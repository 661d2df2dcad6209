#pragma once
#include "core/results/AttentionSnapshot.h"

#include <string>
#include <vector>

namespace attnlab {

// Attention over word pieces shown over words, and without [CLS]/[SEP]. Each token is given a
// group (its word) or -1 (hidden). As Clark et al. (2019, "What Does BERT Look At?") merge a split word:
// attention *to* a word is the sum of the attention to its pieces (a query's row stays a distribution), and
// attention *from* a word is the mean of its pieces' rows. Hidden tokens' columns are dropped and each row
// renormalised over what is left, so a row still sums to 1 (a [CLS]/[SEP]-heavy row is then "the rest, in
// proportion"; the window says so).
class TokenGrouping {
public:
    // groups[t] in 0..groupCount-1, or -1 to hide token t; groups.size() == map.size.
    static AttentionMap apply(const AttentionMap& map, const std::vector<int>& groups, int groupCount);
    // The same for a map whose rows and columns are different tokens (a translation's cross-attention: target
    // pieces down, source pieces across): rows grouped by rowGroups (a word's rows averaged), columns by
    // columnGroups (a word's columns summed).
    static AttentionMap apply(const AttentionMap& map, const std::vector<int>& rowGroups, int rowCount,
                              const std::vector<int>& columnGroups, int columnCount);
    // Pooling weights (a distribution over tokens) regrouped the same way: summed, hidden ones dropped, renormalised.
    static std::vector<float> applyToWeights(const std::vector<float>& weights, const std::vector<int>& groups, int groupCount);

    // The groups for word pieces: words[t] is the word of piece t (-1 for [CLS], [SEP] and other specials).
    // mergePieces: one group per word (else one per piece); hideSpecial: specials hidden (else each its own group).
    // labels gets each group's text: the pieces joined without "##", or the piece itself.
    // SentencePiece's pieces: a word starts at a piece that begins with "▁" (U+2581) and at the first
    // piece; anything in angle brackets (<eos>, <unk>) is a group of its own. labels: the words without "▁".
    static std::vector<int> forSentencePieces(const std::vector<std::string>& pieces, std::vector<std::string>* labels, int* groupCount);
    static std::vector<int> forPieces(const std::vector<std::string>& tokens, const std::vector<int>& words, bool mergePieces,
                                      bool hideSpecial, std::vector<std::string>* labels, int* groupCount);
};

} // namespace attnlab
