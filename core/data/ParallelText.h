#pragma once
#include "core/data/TranslationDataset.h"

#include <string>
#include <vector>

namespace attnlab {

class Tokenizer;

// What the readers of real sentence pairs share (Multi30kReader, CsvPairsReader): a pair from two lines,
// two files of parallel lines read line for line, the length cap on the training split, the probe pair.
class ParallelText {
public:
    // One pair: the lines as read are sourceText/targetText, their tokens (invisible code points removed,
    // TextFile::withoutZeroWidth) source/target. No gold alignment.
    static TranslationPair pairOf(const std::string& source, const std::string& target, const Tokenizer& tokenizer);

    // Two files (plain or gzip) of parallel lines: line i of each is a pair. Their line counts must match (a
    // DataError naming both files and both counts) and no line may be empty or blank (a DataError naming file
    // and line: an empty line would pair every line after it with the wrong one, or with nothing). Blank lines
    // at the very end of a file are not lines: editors leave them.
    static std::vector<TranslationPair> readFiles(const std::string& sourcePath, const std::string& targetPath,
                                                  const Tokenizer& tokenizer);

    // The length cap (DatasetOptions::maxPairLength; 0 = none): train pairs with a side of more than
    // maxLength tokens are dropped, dev and test pairs are kept; every split's count over the cap becomes a
    // note naming the split's file ("FILE: ...", never silent). A train split left empty is a DataError.
    struct Sources {
        std::string train, dev, test; // where each split came from (the same file when one was split)
    };
    static void applyCap(TranslationDataset& dataset, int maxLength, const Sources& sources);

    // A split without pairs is a DataError naming where it came from and the split.
    static void requirePairs(const std::vector<TranslationPair>& split, const std::string& source, const std::string& splitName);
    // The probe pair: the first dev pair whose sides both have 5..15 tokens (a readable alignment matrix),
    // else the first one.
    static TranslationPair probeFrom(const std::vector<TranslationPair>& dev);
};

} // namespace attnlab
