#pragma once
#include <string>
#include <vector>

namespace attnlab {

// Tokens back into text, for the metrics that are counted on text (BLEU and chrF as sacreBLEU counts them)
// and for the translation a person reads. Written by hand: Debian packages no detokeniser as a library (the
// Moses one is a Perl script), and the lab's own tokenisers are what it has to undo.
class TranslationText {
public:
    // The words style's inverse, as far as it goes (Tokenizer::Style::Words): closing punctuation
    // (. , ; : ! ? ) ] } %) and English contractions ('s n't 're 've 'll 'd 'm) glued to the word before,
    // opening brackets to the word after, French elisions ("d' un") joined; everything else joined by one
    // space. Subword pieces (bpe, unigram) are glued at their word-start marks (SubwordModel::decode). Other
    // tokenizers' tokens (whitespace: the synthetic tasks) are joined by spaces.
    static std::string detokenize(const std::vector<std::string>& tokens, const std::string& tokenizer);
    // Tokens joined by single spaces, lowercased when asked (ASCII and Latin-1, Tokenizer::lowercased): the
    // tokenised text that BLEU over tokens (bentrevett's figure) is counted on.
    static std::string joined(const std::vector<std::string>& tokens, bool lowercase);
    // The words a translation's tokens make: the tokens themselves, or for subword pieces the words tokenizer
    // over their text, so BLEU over tokens counts words whatever the run's units (as bentrevett's figure).
    static std::vector<std::string> words(const std::vector<std::string>& tokens, const std::string& tokenizer);
};

} // namespace attnlab
