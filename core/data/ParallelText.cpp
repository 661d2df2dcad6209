#include "core/data/ParallelText.h"

#include "core/data/DataError.h"
#include "core/data/GzipInput.h"
#include "core/data/TextFile.h"
#include "core/data/Tokenizer.h"

#include <tuple>

namespace attnlab {
namespace {

bool blank(const std::string& line)
{
    return TextFile::withoutZeroWidth(line).find_first_not_of(" \t\r\f\v") == std::string::npos;
}

std::vector<std::string> linesOf(const std::string& path)
{
    std::vector<std::string> lines = GzipInput::readLines(path);
    while (!lines.empty() && blank(lines.back()))
        lines.pop_back();
    return lines;
}

std::string counted(std::size_t n)
{
    std::string digits = std::to_string(n);
    for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

bool overCap(const TranslationPair& p, int maxLength)
{
    return static_cast<int>(p.source.size()) > maxLength || static_cast<int>(p.target.size()) > maxLength;
}

} // namespace

TranslationPair ParallelText::pairOf(const std::string& source, const std::string& target, const Tokenizer& tokenizer)
{
    TranslationPair p;
    p.source = tokenizer.tokenize(TextFile::withoutZeroWidth(source));
    p.target = tokenizer.tokenize(TextFile::withoutZeroWidth(target));
    p.sourceText = source;
    p.targetText = target;
    return p;
}

std::vector<TranslationPair> ParallelText::readFiles(const std::string& sourcePath, const std::string& targetPath,
                                                     const Tokenizer& tokenizer)
{
    const std::vector<std::string> source = linesOf(sourcePath);
    const std::vector<std::string> target = linesOf(targetPath);
    // Empty lines first: one in the middle is also why the counts differ, and this names where it is.
    for (const auto& [lines, path] : {std::pair{&source, &sourcePath}, {&target, &targetPath}})
        for (std::size_t i = 0; i < lines->size(); ++i)
            if (blank((*lines)[i]))
                throw DataError(*path, static_cast<int>(i) + 1,
                                "empty line: every line is one sentence, paired with the same line of the other file");
    if (source.size() != target.size())
        throw DataError(sourcePath, 0, "has " + counted(source.size()) + " lines but " + targetPath + " has " +
                                           counted(target.size()) + ": the two sides must be parallel, line i of each a pair");
    std::vector<TranslationPair> pairs;
    pairs.reserve(source.size());
    for (std::size_t i = 0; i < source.size(); ++i)
        pairs.push_back(pairOf(source[i], target[i], tokenizer));
    return pairs;
}

void ParallelText::applyCap(TranslationDataset& d, int maxLength, const Sources& sources)
{
    if (maxLength <= 0)
        return;
    const std::string cap = " over " + std::to_string(maxLength) + " tokens (max_pair_length)";
    const std::size_t before = d.train.size();
    std::vector<TranslationPair> kept;
    kept.reserve(before);
    for (auto& p : d.train)
        if (!overCap(p, maxLength))
            kept.push_back(std::move(p));
    d.train = std::move(kept);
    if (d.train.size() < before)
        d.notes.push_back(sources.train + ": " + counted(before - d.train.size()) + " of " + counted(before) +
                          " training pairs have a side" + cap + " and were dropped; " + counted(d.train.size()) + " remain");
    for (const auto& [split, name, source] : {std::tuple{&d.dev, "dev", &sources.dev}, {&d.test, "test", &sources.test}}) {
        std::size_t over = 0;
        for (const auto& p : *split)
            over += overCap(p, maxLength) ? 1 : 0;
        if (over > 0)
            d.notes.push_back(*source + ": " + counted(over) + " of " + counted(split->size()) + " " + name + " pairs have a side" +
                              cap + "; kept, since dev and test are never cut");
    }
    if (d.train.empty())
        throw DataError(sources.train, 0, "no training pair is left under the length cap of " + std::to_string(maxLength) +
                                       " tokens (max_pair_length): raise it, or 0 for none");
}

void ParallelText::requirePairs(const std::vector<TranslationPair>& split, const std::string& source, const std::string& splitName)
{
    if (split.empty())
        throw DataError(source, 0, "the " + splitName + " split is empty (no sentence pairs)");
}

TranslationPair ParallelText::probeFrom(const std::vector<TranslationPair>& dev)
{
    for (const auto& p : dev)
        if (p.source.size() >= 5 && p.source.size() <= 15 && p.target.size() >= 5 && p.target.size() <= 15)
            return p;
    return dev.empty() ? TranslationPair{} : dev.front();
}

} // namespace attnlab
