#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// A language-modelling dataset: one stream of token ids per split over one vocabulary (next-token prediction).
// Tokens are characters (UTF-8 code points), words or SentencePiece pieces (LanguageModelText); a token's id is its index in
// `vocabulary`, which has no padding and no unknown token, so the training text is given back byte for byte.
struct LanguageModelDataset {
    std::string id;
    std::string name;
    std::string unit = "characters";      // characters | words | pieces | symbols (the synthetic task's)
    std::string subwords, subwordKind;    // pieces: the SentencePiece model (SubwordModel::toText) and "bpe" | "unigram"
    std::vector<std::string> vocabulary;  // id -> token; characters sorted by code point, as nanoGPT's prepare.py
    std::vector<std::int32_t> train, dev, test;
    // > 0: every split is a sequence of blocks of this many tokens (the synthetic repeat task: a random sequence
    // of block / 2 tokens, then the same again); a training window is a whole block, never two halves of two.
    int block = 0;
    // A repeat task: within a block, the positions [repeatFrom, repeatTo) always hold a copy of an earlier token that
    // a model able to find it can predict, and the positions before half the block never can; evaluation reports
    // the loss on each (repeat_loss, first_half_loss). 0, 0 elsewhere.
    int repeatFrom = 0, repeatTo = 0;
    std::string prompt; // where the samples each evaluation stores start ("ROMEO:" or the text's first line)
    // What reading found that the user should know, as TextDataset::notes.
    std::vector<std::string> notes;

};

} // namespace attnlab
