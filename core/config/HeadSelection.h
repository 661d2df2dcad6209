#pragma once
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// A set of attention heads to knock out, as a user writes it: "L.H" pairs, 1-based as the window names heads
// ("4.7,12.1"), and how: zero (the head's output set to 0) or mean (to its mean over the text's positions).
struct HeadSelection {
    std::vector<std::pair<int, int>> heads; // 0-based (layer, head), in the order written, no repeats
    bool mean = false;

    bool empty() const { return heads.empty(); }
    // Throws std::invalid_argument naming `setting` ("--ablate: '31.1': layer 31 does not exist (the model has 30
    // layers of 9 heads)"), for a malformed pair, a layer or head outside the model, or a head written twice.
    static HeadSelection parse(const std::string& text, int layers, int heads, const std::string& setting = "--ablate");
    std::string text() const; // "4.7,12.1" (1-based)
};

} // namespace attnlab
