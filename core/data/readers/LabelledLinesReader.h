#pragma once
#include "core/data/TextDataset.h"
#include "core/data/Tokenizer.h"

#include <string>
#include <vector>

namespace attnlab {

// Datasets stored as one file per split and class, one example per line: folder/{train,dev,test}/<class>.txt
// (OpeNER: strneg, neg, pos, strpos; SenTube: neg, pos). The class is the file's; every line is an example,
// even one that tokenises to nothing (so counts match the files), with invisible U+FEFF removed.
class LabelledLinesReader {
public:
    struct Layout {
        std::string id;
        std::string name;
        std::vector<std::string> classFiles; // file stem per class, in class order
        std::vector<std::string> classNames;
    };
    static TextDataset read(const std::string& folder, const Layout& layout, const Tokenizer& tokenizer);
};

} // namespace attnlab
