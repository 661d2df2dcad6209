#pragma once
#include "core/data/TextExample.h"

#include <algorithm>
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
    // The longest example of every split, in tokens (Barnes et al. pad their CNN's input to it).
    int longestExample() const
    {
        std::size_t longest = 0;
        for (const auto* split : {&train, &dev, &test})
            for (const auto& example : *split)
                longest = std::max(longest, example.tokens.size());
        return static_cast<int>(longest);
    }
};

} // namespace attnlab
