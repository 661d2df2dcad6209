#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// A text as a GPT-2-style model reads it.
struct BpeEncoding {
    std::vector<int> ids;
    // Each token's text: its bytes, byte-level mapping reversed (" the", "\n", "<|im_start|>"). A token that is part
    // of a multi-byte character ("👍" is four bytes, often two tokens) keeps its bytes, which are not UTF-8 alone.
    std::vector<std::string> pieces;
    std::vector<std::string> tokens; // the vocabulary's own strings ("Ġthe", "Ċ", "<|im_start|>")
    std::vector<std::pair<int, int>> bytes; // each token's [begin, end) byte range in the input text
};

// Byte-level BPE (GPT-2, Radford et al. 2019; Sennrich et al. 2016 for BPE), as SmolLM2's GGUF file names it
// (tokenizer.ggml.model "gpt2", tokenizer.ggml.pre "smollm"). The reference is Hugging Face `tokenizers` with
// pre_tokenizers Sequence[Digits(individual_digits), ByteLevel(add_prefix_space=false)] and models.BPE, which
// is what SmolLM2's tokenizer.json holds and llama.cpp's LLAMA_VOCAB_PRE_TYPE_SMOLLM does; the parity test
// (tests/core/fixtures/smollm2/make_tokens.py) compares ids token for token:
//   1. special tokens (GGUF types 3 control and 4 user defined: "<|im_start|>", "<|endoftext|>") written in the
//      text are taken whole, the leftmost first, and of those starting at one place the longest; the text
//      between them goes through steps 2-4;
//   2. every Unicode number character (\p{N}: "7", "²", "Ⅻ", "١") is a chunk of its own, so numbers are
//      read digit by digit;
//   3. the rest split by GPT-2's pattern
//        's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//      (contractions, a word with the one space before it, a run of punctuation, white space: "\s+(?!\S)"
//      leaves the last space of a run to the word after it);
//   4. each chunk's UTF-8 bytes written in GPT-2's byte alphabet (each of the 256 bytes one printable code
//      point: ' ' is "Ġ", '\n' "Ċ"), then BPE: from single bytes, the adjacent pair with the lowest merge rank
//      is merged, the leftmost of equal ones, until no adjacent pair is a merge; each symbol is a token.
// No BOS is added (SmolLM2's tokenizer.ggml.add_bos_token is false). Unicode data and the pattern's engine come
// from ICU (uc and i18n); BPE itself has no Debian library, so it is written here.
class ByteLevelBpeTokenizer {
public:
    // tokens: the vocabulary, index = id. types: GGUF token types (1 normal, 2 unknown, 3 control, 4 user
    // defined, 5 unused, 6 byte), one per token, or empty (all normal). merges: "a b" strings, rank = index.
    // A merge that is not two tokens separated by one space, or whose parts or result are not in the vocabulary,
    // a duplicate vocabulary string, or types of another length: DataError naming `source` (a file name).
    ByteLevelBpeTokenizer(std::vector<std::string> tokens, std::vector<int> types,
                          const std::vector<std::string>& merges, std::string source);
    ~ByteLevelBpeTokenizer();
    ByteLevelBpeTokenizer(ByteLevelBpeTokenizer&&) noexcept;
    ByteLevelBpeTokenizer& operator=(ByteLevelBpeTokenizer&&) noexcept;

    // specialTokens false: "<|im_start|>" written in the text is read as plain text ("<", "|", "im", ...).
    // Invalid UTF-8 is std::invalid_argument("text: invalid UTF-8 at byte N"), N counted from 1, for the user.
    // A byte whose character is not in the vocabulary (never so with a full byte alphabet) is dropped, as the
    // reference does without an unknown token. Safe to call from several threads at once (nothing is cached).
    BpeEncoding encode(const std::string& text, bool specialTokens = true) const;
    // The tokens' bytes one after another: encode's text again. Special tokens are written as their text. An id
    // outside the vocabulary is std::out_of_range.
    std::string decode(const std::vector<int>& ids) const;
    std::string pieceText(int id) const; // one token's bytes, as decode writes it

    int size() const;
    int idOf(const std::string& token) const; // -1 when absent
    const std::string& tokenOf(int id) const;
    bool isSpecial(int id) const; // type 3 or 4: taken whole by encode

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
