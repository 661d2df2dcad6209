#pragma once
#include <string>
#include <vector>

namespace attnlab {

// One Stanford Sentiment Treebank sentence in PTB form, "(3 (2 It) (4 (4 works) (2 .)))": the leaves are
// the words, every node has a label 0..4 and spans a run of leaves. nodes[0] is the root (the sentence).
struct SstTree {
    struct Node {
        int label = 0;
        int begin = 0; // first leaf
        int end = 0;   // one past the last leaf
    };
    std::vector<std::string> leaves;
    std::vector<Node> nodes; // pre-order

    int rootLabel() const { return nodes.empty() ? -1 : nodes.front().label; }
    std::vector<std::string> phrase(const Node& node) const
    {
        return {leaves.begin() + node.begin, leaves.begin() + node.end};
    }

    // Parses one line; a malformed tree throws DataError naming file, line and column.
    static SstTree parse(const std::string& text, const std::string& file, int line);
};

} // namespace attnlab
