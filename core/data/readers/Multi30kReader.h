#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/TranslationDataset.h"

#include <string>
#include <vector>

namespace attnlab {

// Multi30k, task 1 (Elliott et al. 2016): English, German and French descriptions of Flickr30k images,
// line i of each language's file a translation of the others'. Read from the upstream gzip files as they
// are (train.{en,de,fr}.gz, val.*.gz, test_2016_flickr.*.gz: 29,000 / 1,014 / 1,000 lines) in any direction
// (DatasetOptions::sourceLanguage, targetLanguage): train / dev / test = train / val / test_2016_flickr.
// The raw lines are kept as sourceText/targetText (BLEU is counted on text); tokens are words
// (Tokenizer::Style::Words, DatasetOptions::translationTokenizer), lowercased with DatasetOptions::lowercase.
// The length cap (maxPairLength) drops training pairs only, with a note. No gold alignment.
class Multi30kReader {
public:
    static const std::vector<std::string>& languages(); // en, de, fr
    // A split's file in one language: "train.de.gz", "val.de.gz", "test_2016_flickr.de.gz"; split is
    // train | dev | test.
    static std::string fileOf(const std::string& split, const std::string& language);
    static TranslationDataset read(const std::string& folder, const DatasetOptions& options);
};

} // namespace attnlab
