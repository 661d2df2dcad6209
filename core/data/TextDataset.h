#pragma once
#include "core/data/TextExample.h"

#include <string>
#include <vector>

namespace attnlab {

// A classification dataset split three ways, plus the probe sentence whose attention the UI shows.
struct TextDataset {
    std::string id;
    std::string name;
    std::vector<std::string> classNames;
    std::vector<TextExample> train;
    std::vector<TextExample> dev;
    std::vector<TextExample> test;
    std::vector<std::string> probeTokens;
    // What reading the files found that the user should know, each "FILE[:LINE]: what": quoted fields
    // spanning lines, for one. The CLI prints them (train, stats); statistics carry them.
    std::vector<std::string> notes;
    // How the files' text became tokens, so that a sentence typed later (the explorer, `explain`) is split
    // the same way: a Tokenizer style name (whitespace | ptb | tweet) and whether tokens were lowercased.
    std::string tokenizer = "ptb";
    bool lowercase = false;

    int numClasses() const { return static_cast<int>(classNames.size()); }
};

} // namespace attnlab
