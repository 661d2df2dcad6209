#include "core/analysis/AttentionStepsTable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab {
namespace {

std::string fixed(double value, int decimals)
{
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string listed(const std::string& name, const std::vector<float>& values, int shown)
{
    std::string line = name + ":";
    const std::size_t n = std::min(values.size(), static_cast<std::size_t>(std::max(shown, 0)));
    for (std::size_t i = 0; i < n; ++i)
        line += " " + fixed(values[i], 3);
    if (n < values.size())
        line += " …";
    return line + " (" + std::to_string(values.size()) + " values)";
}

// A key a reader can see: a space as the open box, as the writing explorer's bars show it.
std::string visible(const std::string& token)
{
    return token == " " ? "\xE2\x90\xA3" : token;
}

} // namespace

TableDocument AttentionStepsTable::of(const AttentionStepByStep& s)
{
    TableDocument table;
    const auto& queries = s.queryTokens.empty() ? s.tokens : s.queryTokens;
    const std::string query = static_cast<std::size_t>(s.query) < queries.size() ? visible(queries[static_cast<std::size_t>(s.query)]) : "";
    const std::string part = s.part == "encoder" ? "Encoder self-attention, " : s.part == "decoder" ? "Decoder self-attention, "
                             : s.part == "cross" ? "Cross-attention, " : "";
    std::string score = s.position == "rpr" ? "(q . k_j + q . a_ij)" : "q . k_j";
    score += s.scaled ? " / sqrt(" + std::to_string(s.headSize) + ")" : " (not divided by sqrt(d_k))";
    if (s.position == "alibi")
        score += " - m |i - j|";
    table.caption = part + (part.empty() ? "Layer " : "layer ") + std::to_string(s.layer + 1) + ", head " + std::to_string(s.head + 1) + ", query " + std::to_string(s.query) +
                    " (" + query + "): score_j = " + (s.uniform ? "none, every weight 1/n" : score) + "; weight_j = softmax over the keys the mask leaves";
    // The position column only where the technique adds a term to the scores (RPR, ALiBi): elsewhere it is all 0.
    const bool positioned = s.position == "rpr" || s.position == "alibi";
    table.header = {"j", "key", "q . k_j"};
    if (positioned)
        table.header.push_back(s.position == "rpr" ? "q . a_ij" : "-m |i - j|");
    for (const char* h : {"score", "masked", "weight", "model's weight"})
        table.header.push_back(h);
    table.numeric.assign(table.header.size(), true);
    table.numeric[1] = false;
    table.numeric[table.header.size() - 3] = false;
    std::size_t best = 0;
    for (std::size_t j = 0; j < s.weights.size(); ++j)
        if (s.weights[j] > s.weights[best])
            best = j;
    auto at = [](const std::vector<float>& v, std::size_t j) { return j < v.size() ? static_cast<double>(v[j]) : 0.0; };
    for (std::size_t j = 0; j < s.tokens.size(); ++j) {
        const bool masked = j < s.masked.size() && s.masked[j];
        std::vector<TableDocument::Cell> row = {{std::to_string(j)}, {visible(s.tokens[j])}, {s.uniform ? "" : fixed(at(s.dot, j), 4)}};
        if (positioned)
            row.push_back({s.uniform ? "" : fixed(at(s.positionTerm, j), 4)});
        row.push_back({s.uniform || masked ? "" : fixed(at(s.scores, j), 4)});
        row.push_back({masked ? "masked" : ""});
        row.push_back({fixed(at(s.weights, j), 4), j == best && !s.weights.empty()});
        row.push_back({j < s.modelWeights.size() ? fixed(s.modelWeights[j], 4) : ""});
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string AttentionStepsTable::vectors(const AttentionStepByStep& s, int shown)
{
    return listed("input x_i", s.input, shown) + "\n" + listed("q_i", s.q, shown) + "\n" + listed("output sum_j w_j v_j", s.output, shown);
}

double AttentionStepsTable::largestDifference(const AttentionStepByStep& s)
{
    double largest = 0.0;
    for (std::size_t j = 0; j < s.weights.size() && j < s.modelWeights.size(); ++j)
        largest = std::max(largest, std::abs(static_cast<double>(s.weights[j]) - s.modelWeights[j]));
    return largest;
}

} // namespace attnlab
