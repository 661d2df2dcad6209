#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/TextDataset.h"

#include <string>

namespace attnlab {

// The Stanford Sentiment Treebank from its PTB trees (folder with train.txt, dev.txt, test.txt).
// Sentence level: the root label of each tree (5 classes), or for binary the sentences without root
// label 2, with {0,1} -> negative and {3,4} -> positive (6920/872/1821).
// Phrase level (options.phrases, thesis 5.2.1): the training set is every labelled node (318,582
// phrases), each sub-phrase repeated by its class's multiplier, plus extra copies of the whole sentences
// (defaults reproduce the thesis' 672,640 fine and 215,446 binary training examples);
// dev and test stay sentence level.
class SstReader {
public:
    static TextDataset read(const std::string& folder, bool binary, const DatasetOptions& options);
};

} // namespace attnlab
