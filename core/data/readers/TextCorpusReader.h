#pragma once
#include "core/data/LanguageModelDataset.h"

#include <string>

namespace attnlab {

// A text for a language model, read whole: a plain or gzip file (GzipInput) of UTF-8 text. Refused with a
// DataError naming the file (and the line where there is one): a file that cannot be read, an empty one, a
// binary one (a NUL byte), invalid UTF-8.
// - tinyShakespeare: karpathy's input.txt (lm/tinyshakespeare/input.txt or .gz) split as nanoGPT's
//   prepare.py splits it: the first 90% of the characters train, the last 10% validate. nanoGPT has no third
//   split, so dev and test are both its validation 10% (a note says so): the figures compare with its val loss.
// - ownText: any UTF-8 text as characters or words, the first 90% of its tokens train, the next 5% are dev,
//   the last 5% test (the end of a text, as nanoGPT keeps its validation at the end).
class TextCorpusReader {
public:
    static std::string readText(const std::string& path);
    static LanguageModelDataset tinyShakespeare(const std::string& path);
    static LanguageModelDataset ownText(const std::string& path, const std::string& unit);
};

} // namespace attnlab
