#include "core/analysis/TokenGrouping.h"

#include <stdexcept>

namespace attnlab {

AttentionMap TokenGrouping::apply(const AttentionMap& map, const std::vector<int>& groups, int groupCount)
{
    if (static_cast<int>(groups.size()) != map.size)
        throw std::invalid_argument("token groups: " + std::to_string(groups.size()) + " groups for a map of " +
                                    std::to_string(map.size) + " tokens");
    AttentionMap out = apply(map, groups, groupCount, groups, groupCount);
    out.columns = 0; // square again
    return out;
}

AttentionMap TokenGrouping::apply(const AttentionMap& map, const std::vector<int>& rowGroups, int rowCount,
                                  const std::vector<int>& columnGroups, int columnCount)
{
    if (static_cast<int>(rowGroups.size()) != map.size || static_cast<int>(columnGroups.size()) != map.width())
        throw std::invalid_argument("token groups: " + std::to_string(rowGroups.size()) + " x " + std::to_string(columnGroups.size()) +
                                    " groups for a map of " + std::to_string(map.size) + " x " + std::to_string(map.width()) + " tokens");
    std::vector<int> members(static_cast<std::size_t>(rowCount), 0);
    for (int g : rowGroups) {
        if (g >= rowCount)
            throw std::invalid_argument("token groups: group " + std::to_string(g) + " of " + std::to_string(rowCount));
        if (g >= 0)
            ++members[static_cast<std::size_t>(g)];
    }
    for (int g : columnGroups)
        if (g >= columnCount)
            throw std::invalid_argument("token groups: group " + std::to_string(g) + " of " + std::to_string(columnCount));
    AttentionMap out;
    out.layer = map.layer;
    out.head = map.head;
    out.size = rowCount;
    out.columns = columnCount;
    out.weights.assign(static_cast<std::size_t>(rowCount) * columnCount, 0.0f);
    // Sum over the key pieces of a word, then the mean over its query pieces; hidden keys and queries skipped.
    std::vector<double> row(static_cast<std::size_t>(columnCount));
    for (int q = 0; q < map.size; ++q) {
        const int gq = rowGroups[static_cast<std::size_t>(q)];
        if (gq < 0)
            continue;
        std::fill(row.begin(), row.end(), 0.0);
        double kept = 0;
        for (int k = 0; k < map.width(); ++k) {
            const int gk = columnGroups[static_cast<std::size_t>(k)];
            if (gk < 0)
                continue;
            row[static_cast<std::size_t>(gk)] += map.at(q, k);
            kept += map.at(q, k);
        }
        const double scale = (kept > 0 ? 1.0 / kept : 0.0) / members[static_cast<std::size_t>(gq)];
        for (int g = 0; g < columnCount; ++g)
            out.weights[static_cast<std::size_t>(gq) * columnCount + g] += static_cast<float>(row[static_cast<std::size_t>(g)] * scale);
    }
    return out;
}

std::vector<int> TokenGrouping::forSentencePieces(const std::vector<std::string>& pieces, std::vector<std::string>* labels, int* groupCount)
{
    static const std::string kWordStart = "\xe2\x96\x81"; // U+2581, SentencePiece's mark of a word's first piece
    std::vector<int> groups;
    std::vector<std::string> words;
    bool previousSpecial = true;
    for (const auto& piece : pieces) {
        const bool special = piece.size() > 2 && piece.front() == '<' && piece.back() == '>';
        const bool starts = piece.rfind(kWordStart, 0) == 0;
        if (special || starts || previousSpecial || words.empty()) {
            words.push_back(starts ? piece.substr(kWordStart.size()) : piece);
        } else {
            words.back() += piece;
        }
        groups.push_back(static_cast<int>(words.size()) - 1);
        previousSpecial = special;
    }
    if (labels)
        *labels = words;
    if (groupCount)
        *groupCount = static_cast<int>(words.size());
    return groups;
}

std::vector<float> TokenGrouping::applyToWeights(const std::vector<float>& weights, const std::vector<int>& groups, int groupCount)
{
    if (weights.size() != groups.size())
        throw std::invalid_argument("token groups: " + std::to_string(groups.size()) + " groups for " +
                                    std::to_string(weights.size()) + " weights");
    std::vector<double> sum(static_cast<std::size_t>(groupCount), 0.0);
    double kept = 0;
    for (std::size_t t = 0; t < weights.size(); ++t)
        if (groups[t] >= 0) {
            sum[static_cast<std::size_t>(groups[t])] += weights[t];
            kept += weights[t];
        }
    std::vector<float> out(sum.size());
    for (std::size_t g = 0; g < sum.size(); ++g)
        out[g] = static_cast<float>(kept > 0 ? sum[g] / kept : 0.0);
    return out;
}

std::vector<int> TokenGrouping::forPieces(const std::vector<std::string>& tokens, const std::vector<int>& words, bool mergePieces,
                                          bool hideSpecial, std::vector<std::string>* labels, int* groupCount)
{
    std::vector<int> groups(tokens.size(), -1);
    std::vector<std::string> names;
    int lastWord = -2;
    for (std::size_t t = 0; t < tokens.size(); ++t) {
        const int word = t < words.size() ? words[t] : -1;
        const bool special = word < 0;
        if (special && hideSpecial)
            continue;
        const std::string& piece = tokens[t];
        const bool continues = piece.rfind("##", 0) == 0;
        if (mergePieces && !special && word == lastWord) {
            groups[t] = static_cast<int>(names.size()) - 1;
            names.back() += continues ? piece.substr(2) : piece;
            continue;
        }
        groups[t] = static_cast<int>(names.size());
        names.push_back(piece);
        lastWord = special ? -2 : word;
    }
    if (labels)
        *labels = names;
    if (groupCount)
        *groupCount = static_cast<int>(names.size());
    return groups;
}

} // namespace attnlab
