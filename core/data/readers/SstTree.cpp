#include "core/data/readers/SstTree.h"

#include "core/data/DataError.h"
#include "core/data/Tokenizer.h"

namespace attnlab {
namespace {

// Recursive descent over "(label child child ...)" where a child is a subtree or a word.
class TreeParser {
public:
    TreeParser(const std::string& text, const std::string& file, int line) : s_(text), file_(file), line_(line) {}

    SstTree run()
    {
        skipSpace();
        node();
        skipSpace();
        if (pos_ != s_.size())
            fail("unexpected text after the tree's closing parenthesis");
        if (tree_.leaves.empty())
            fail("tree without words");
        return std::move(tree_);
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw DataError(file_, line_, "malformed tree at column " + std::to_string(pos_ + 1) + ": " + what);
    }
    void skipSpace()
    {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
    }
    // Real trees nest a few dozen levels (one per phrase); the limit keeps a line of a million '(' from
    // overflowing the stack of this recursive parser.
    static constexpr int kMaxDepth = 1000;

    void node()
    {
        if (pos_ >= s_.size() || s_[pos_] != '(')
            fail("expected '('");
        if (++depth_ > kMaxDepth)
            fail("the tree nests deeper than " + std::to_string(kMaxDepth) + " levels");
        ++pos_;
        skipSpace();
        if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '4')
            fail("expected a label 0..4 after '('");
        const int label = s_[pos_++] - '0';
        if (pos_ < s_.size() && s_[pos_] != ' ' && s_[pos_] != '\t')
            fail("expected a label 0..4 after '('");
        const std::size_t index = tree_.nodes.size();
        tree_.nodes.push_back({label, static_cast<int>(tree_.leaves.size()), 0});
        skipSpace();
        bool children = false;
        while (pos_ < s_.size() && s_[pos_] != ')') {
            if (s_[pos_] == '(') {
                node();
            } else {
                const std::size_t start = pos_;
                while (pos_ < s_.size() && s_[pos_] != ' ' && s_[pos_] != '\t' && s_[pos_] != ')' && s_[pos_] != '(')
                    ++pos_;
                tree_.leaves.push_back(Tokenizer::fromPtbBracket(s_.substr(start, pos_ - start)));
            }
            children = true;
            skipSpace();
        }
        if (pos_ >= s_.size())
            fail("missing ')' (the tree ends early)");
        if (!children)
            fail("empty node");
        ++pos_;
        --depth_;
        tree_.nodes[index].end = static_cast<int>(tree_.leaves.size());
    }

    const std::string& s_;
    const std::string& file_;
    int line_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    SstTree tree_;
};

} // namespace

SstTree SstTree::parse(const std::string& text, const std::string& file, int line)
{
    return TreeParser(text, file, line).run();
}

} // namespace attnlab
