#pragma once
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// One sentence pair of a translation task: the source and target as tokens, the raw lines they
// came from (BLEU and chrF are counted on text, as sacreBLEU counts them), and where the task knows it the
// gold alignment: "sure" links (Och & Ney 2003) as (source index, target index) pairs, each index into the
// token vectors. A target token linked to nothing (the weekday of a date) simply has no link.
struct TranslationPair {
    std::vector<std::string> source;
    std::vector<std::string> target;
    std::string sourceText; // the line as read (for the synthetic tasks: the tokens joined by spaces)
    std::string targetText;
    std::vector<std::pair<int, int>> alignment; // (source, target); empty where no gold alignment is known
};

// A translation dataset split three ways, plus the probe pair whose alignment the UI shows.
struct TranslationDataset {
    std::string id;
    std::string name;
    std::string sourceLanguage; // "de", "en", "fr"; for the synthetic tasks what the side is ("words", "date")
    std::string targetLanguage;
    std::vector<TranslationPair> train;
    std::vector<TranslationPair> dev;
    std::vector<TranslationPair> test;
    TranslationPair probe;
    // Every pair carries its gold alignment (the synthetic tasks): AER and exact match are measured.
    bool goldAlignment = false;
    // What reading found that the user should know ("FILE:LINE: ..."), as TextDataset::notes.
    std::vector<std::string> notes;
    // How text became tokens, so a typed sentence is split the same way (a Tokenizer style name) and how
    // tokens join back into text for BLEU (TranslationText::detokenize).
    std::string tokenizer = "whitespace";
    bool lowercase = false;
    // Subword runs (tokenizer "bpe" | "unigram"): each side's SentencePiece model as SubwordModel::toText, so the
    // checkpoint carries it; the text was lowercased first when `lowercase`. Empty for words.
    std::string sourceSubwords, targetSubwords;
};

} // namespace attnlab
