#pragma once
#include "core/data/LanguageModelDataset.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

class SubwordModel;

// How a text becomes a language model's tokens and back, one rule for the data, the prompt a user types and
// the generated text: characters are UTF-8 code points (a multi-byte character is one token); words are runs
// of non-space characters, with each line end a token of its own ("\n") so a poem keeps its lines; pieces are a
// SentencePiece model's (SubwordModel, learnt on the training text), each line's pieces then "\n". Characters give
// the text back byte for byte; words and pieces up to runs of spaces (one space between words, none at a line's ends).
class LanguageModelText {
public:
    // pieces: the model "pieces" needs. Throws std::invalid_argument for an unknown unit (characters | words |
    // pieces) or pieces without their model.
    static std::vector<std::string> split(const std::string& text, const std::string& unit, const SubwordModel* pieces = nullptr);
    // The units a user may choose for a text (not the synthetic task's "symbols").
    static bool isUnit(const std::string& unit) { return unit == "characters" || unit == "words" || unit == "pieces"; }
    static std::string join(const std::vector<std::string>& tokens, const std::string& unit);
    // The vocabulary of these tokens: every distinct one, sorted (bytewise, which for UTF-8 is code-point order).
    static std::vector<std::string> vocabularyOf(const std::vector<std::string>& tokens);
    // Ids in `vocabulary` (sorted, as vocabularyOf makes it). Throws std::invalid_argument naming the first token
    // the vocabulary lacks and where it is ("character 'é' (position 4) is not in the model's 65 characters").
    static std::vector<std::int32_t> encode(const std::vector<std::string>& tokens, const std::vector<std::string>& vocabulary,
                                            const std::string& unit);
    // A token as a person reads it in a message or a table: "\n" as "\\n", a space as "' '".
    static std::string shown(const std::string& token);
};

} // namespace attnlab
