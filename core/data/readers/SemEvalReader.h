#pragma once
#include "core/data/TextDataset.h"
#include "core/data/Tokenizer.h"

#include <string>

namespace attnlab {

// SemEval-2013 Task 2B tweets: folder/{train,dev,test}.tsv, each row "tweet id TAB user id TAB "label" TAB text".
// Three classes: negative, neutral, positive; "objective" and "objective-OR-neutral" count as neutral
// (as in Barnes et al. 2017). A short row or any other label is an error naming file and line.
class SemEvalReader {
public:
    static TextDataset read(const std::string& folder, const Tokenizer& tokenizer);
    // Class index of a label as written in the file (quotes optional); -1 when unknown.
    static int labelIndex(const std::string& label);
};

} // namespace attnlab
