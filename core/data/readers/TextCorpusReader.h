#pragma once
#include "core/data/LanguageModelDataset.h"

#include <string>

namespace attnlab {

// Word pieces of a language model's text (unit "pieces"): a SentencePiece model of this kind ("bpe" | "unigram") and
// about this many pieces, learnt on the training text's lines (the first 90% of a text file; Multi30k's training
// file) and kept in the dataset for the checkpoint.
struct TextPieceSettings {
    std::string kind = "bpe";
    int vocabulary = 8000;
};

// A text for a language model, read whole: a plain or gzip file (GzipInput) of UTF-8 text. Refused with a
// DataError naming the file (and the line where there is one): a file that cannot be read, an empty one, a
// binary one (a NUL byte), invalid UTF-8.
// - tinyShakespeare: karpathy's input.txt (lm/tinyshakespeare/input.txt or .gz) split as nanoGPT's
//   prepare.py splits it: the first 90% of the characters train, the last 10% validate. nanoGPT has no third
//   split, so dev and test are both its validation 10% (a note says so): the figures compare with its val loss.
// - ownText: any UTF-8 text as characters, words or pieces, the first 90% of its tokens train, the next 5% are dev,
//   the last 5% test (the end of a text, as nanoGPT keeps its validation at the end).
// - multi30k: Multi30k's descriptions in one language (en, de or fr), its own splits (train, val,
//   test_2016_flickr: 29,000 / 1,014 / 1,000 lines), each line's end a token: a corpus of short sentences as words
//   or characters, the text as the files have it (case kept). One vocabulary over the three splits, so a word seen
//   only in dev or test is in it, never trained on (a note counts them).
class TextCorpusReader {
public:
    static std::string readText(const std::string& path);
    static LanguageModelDataset tinyShakespeare(const std::string& path);
    static LanguageModelDataset ownText(const std::string& path, const std::string& unit, const TextPieceSettings& pieces = {});
    static LanguageModelDataset multi30k(const std::string& folder, const std::string& language, const std::string& unit,
                                         const TextPieceSettings& pieces = {});
};

} // namespace attnlab
