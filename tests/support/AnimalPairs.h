#pragma once
// A small TSV of sentence pairs for the subword tests: 400 lines of 3-6 German animal words and
// their reversal, with a "de<TAB>en" header: enough for SentencePiece BPE with a few dozen pieces.
#include <fstream>
#include <string>

namespace attnlab::testing {

inline void writeAnimalPairs(const std::string& path)
{
    std::ofstream out(path);
    out << "de\ten\n";
    const char* words[] = {"Hund", "Katze", "Maus", "Vogel", "Fisch", "Pferd", "Kuh", "Schaf"};
    for (int i = 0; i < 400; ++i) {
        std::string source, target;
        for (int w = 0; w < 3 + i % 4; ++w) {
            const std::string word = words[(i * 7 + w * 3) % 8];
            source += (source.empty() ? "" : " ") + word;
            target = word + (target.empty() ? "" : " ") + target;
        }
        out << source << "\t" << target << "\n";
    }
}

} // namespace attnlab::testing
