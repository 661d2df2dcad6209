#include "core/data/readers/SstReader.h"

#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/DatasetSplitCheck.h"
#include "core/data/readers/SstTree.h"
#include "core/data/TextFile.h"
#include "core/data/Tokenizer.h"

namespace attnlab {
namespace {

// Fine label -> binary label; -1 = dropped (neutral).
int binaryLabel(int fine) { return fine < 2 ? 0 : fine > 2 ? 1 : -1; }

std::vector<SstTree> readTrees(const std::string& path)
{
    const auto lines = TextFile::readLines(path);
    std::vector<SstTree> trees;
    trees.reserve(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find_first_not_of(" \t") == std::string::npos)
            continue; // a trailing blank line is not a tree
        trees.push_back(SstTree::parse(lines[i], path, static_cast<int>(i + 1)));
    }
    return trees;
}

TextExample example(std::vector<std::string> tokens, int label, bool lowercase)
{
    if (lowercase)
        for (auto& t : tokens) t = Tokenizer::lowercased(t);
    return {std::move(tokens), label};
}

std::vector<TextExample> sentences(const std::vector<SstTree>& trees, bool binary, bool lowercase)
{
    std::vector<TextExample> out;
    for (const auto& tree : trees) {
        const int label = binary ? binaryLabel(tree.rootLabel()) : tree.rootLabel();
        if (label >= 0)
            out.push_back(example(tree.leaves, label, lowercase));
    }
    return out;
}

std::vector<TextExample> phrases(const std::vector<SstTree>& trees, bool binary, const DatasetOptions& options,
                                 const std::string& source)
{
    std::vector<int> multipliers = options.phraseMultipliers;
    if (!options.rebalance)
        multipliers = {1, 1, 1, 1, 1};
    else if (multipliers.empty())
        multipliers = binary ? std::vector<int>{3, 2, 1, 2, 3} : std::vector<int>{6, 4, 1, 4, 6};
    if (multipliers.size() != 5)
        throw DataError(source, 0, "setting phrase multipliers: expected 5 values (one per fine class), got " +
                                       std::to_string(multipliers.size()));
    // Defaults reproduce the thesis' published totals (5.2.1): 672,640 fine examples and {92,367, 123,079}
    // binary. Those need 5 (fine) and 1 (binary) extra copies of each sentence, although the prose says
    // "4 extra" and "2 extra" (docs/DATASETS.md).
    int extra = options.extraSentenceCopies < 0 ? (binary ? 1 : 5) : options.extraSentenceCopies;
    if (!options.rebalance)
        extra = 0;
    std::vector<TextExample> out;
    for (const auto& tree : trees) {
        for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
            const auto& node = tree.nodes[n];
            const int label = binary ? binaryLabel(node.label) : node.label;
            if (label < 0)
                continue;
            const auto tokens = tree.phrase(node);
            // The multipliers repeat sub-phrases; the sentence itself (node 0) is here once.
            const int copies = n == 0 ? 1 : multipliers[static_cast<std::size_t>(node.label)];
            for (int copy = 0; copy < copies; ++copy)
                out.push_back(example(tokens, label, options.lowercase));
        }
        const int root = binary ? binaryLabel(tree.rootLabel()) : tree.rootLabel();
        for (int copy = 0; root >= 0 && copy < extra; ++copy)
            out.push_back(example(tree.leaves, root, options.lowercase));
    }
    return out;
}

} // namespace

TextDataset SstReader::read(const std::string& folder, bool binary, const DatasetOptions& options)
{
    const std::string trainPath = DataLocator::join(folder, "train.txt");
    const std::string devPath = DataLocator::join(folder, "dev.txt");
    const std::string testPath = DataLocator::join(folder, "test.txt");
    const auto trainTrees = readTrees(trainPath);

    TextDataset d;
    d.id = binary ? "sst-binary" : "sst-fine";
    d.name = std::string(binary ? "SST-binary" : "SST-fine") + (options.phrases ? " (phrase level)" : "");
    d.classNames = binary ? std::vector<std::string>{"negative", "positive"}
                          : std::vector<std::string>{"very negative", "negative", "neutral", "positive", "very positive"};
    d.train = options.phrases ? phrases(trainTrees, binary, options, trainPath) : sentences(trainTrees, binary, options.lowercase);
    d.dev = sentences(readTrees(devPath), binary, options.lowercase);
    d.test = sentences(readTrees(testPath), binary, options.lowercase);
    DatasetSplitCheck::requireExamples(d.train, trainPath, "train");
    DatasetSplitCheck::requireExamples(d.dev, devPath, "dev");
    DatasetSplitCheck::requireExamples(d.test, testPath, "test");
    d.probeTokens = DatasetSplitCheck::probeFrom(d.dev);
    return d;
}

} // namespace attnlab
