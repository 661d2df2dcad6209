#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

// A sentence as a BERT-style model reads it: [CLS] pieces [SEP].
struct WordPieceEncoding {
    std::vector<int> ids;
    std::vector<std::string> tokens; // the vocabulary's strings: "[CLS]", "cafe", "cr", "##eme", ...
    // Per token: the index of the word (whitespace- and punctuation-separated) it is a piece of, so pieces can
    // be merged back into words; -1 for [CLS], [SEP] and special tokens written in the text.
    std::vector<int> words;
    std::vector<std::string> wordTexts; // each word as normalised (lowercased, accents stripped)
    int truncated = 0;                  // pieces dropped to fit max_length
};

// BERT's tokenizer (Devlin et al. 2019; Hugging Face `tokenizers`' BertNormalizer + BertPreTokenizer + WordPiece,
// whose outputs the parity test compares token for token):
//   1. special tokens written in the text ("[CLS]", "[MASK]", ...) are taken as they are, before anything else;
//   2. clean: NUL, U+FFFD and control characters (category C*, except tab, CR, LF) removed, white space to ' ';
//   3. CJK ideographs padded with spaces (each becomes a word);
//   4. accents stripped (NFD, then nonspacing marks, Mn, removed) and lowercased, one code point at a time
//      (so a final Σ becomes σ, as the reference does), when the model is uncased;
//   5. split at white space, each punctuation character (ASCII punctuation or Unicode P*) a word of its own;
//   6. WordPiece: each word split greedily into the longest vocabulary entries from its start, continuations
//      prefixed "##"; a word with a piece not in the vocabulary, or longer than 100 characters, is [UNK].
// Unicode data (categories, white space, NFD, case mapping) comes from ICU, which Debian keeps; the algorithm
// itself has no Debian library (sentencepiece is another algorithm), so it is written here.
class WordPieceTokenizer {
public:
    struct Options {
        bool lowercase = true;
        bool stripAccents = true;   // tokenizer_config's strip_accents; null there means "as lowercase"
        bool chineseChars = true;
        int maxInputChars = 100;
    };

    // vocab.txt: one entry per line, the line's index its id. A duplicate or empty entry, or missing [UNK],
    // [CLS] or [SEP], is a DataError naming the file and line.
    WordPieceTokenizer(const std::string& vocabPath, const Options& options);
    // The same from the entries themselves (a fine-tuned model's checkpoint keeps them); `source` names them
    // in errors.
    WordPieceTokenizer(const std::vector<std::string>& vocabulary, const Options& options, const std::string& source);
    // A model folder: vocab.txt, with do_lower_case / strip_accents / tokenize_chinese_chars read from
    // tokenizer_config.json when it is there.
    static WordPieceTokenizer fromFolder(const std::string& folder);
    ~WordPieceTokenizer();
    WordPieceTokenizer(WordPieceTokenizer&&) noexcept;
    WordPieceTokenizer& operator=(WordPieceTokenizer&&) noexcept;

    // [CLS] + pieces + [SEP], cut to maxLength in all (0 = no limit). Invalid UTF-8 bytes count as U+FFFD.
    WordPieceEncoding encode(const std::string& text, int maxLength = 0) const;

    int size() const;
    int idOf(const std::string& token) const; // -1 when absent
    const std::string& tokenOf(int id) const;
    int clsId() const;
    int sepId() const;
    int padId() const;
    int unkId() const;
    const Options& options() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
