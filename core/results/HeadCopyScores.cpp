#include "core/results/HeadCopyScores.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace attnlab {

namespace {

std::pair<int, int> argmax(const std::vector<std::vector<double>>& scores)
{
    std::pair<int, int> best {0, 0};
    double value = -1.0;
    for (std::size_t l = 0; l < scores.size(); ++l)
        for (std::size_t h = 0; h < scores[l].size(); ++h)
            if (scores[l][h] > value) {
                value = scores[l][h];
                best = {static_cast<int>(l), static_cast<int>(h)};
            }
    return best;
}

} // namespace

std::pair<int, int> HeadCopyScores::bestInduction() const
{
    return argmax(induction);
}
std::pair<int, int> HeadCopyScores::bestPreviousToken() const
{
    return argmax(previousToken);
}

std::vector<std::pair<int, int>> HeadCopyScores::ranked(const std::vector<std::vector<double>>& scores,
                                                        std::size_t count)
{
    std::vector<std::pair<double, std::pair<int, int>>> all;
    for (std::size_t l = 0; l < scores.size(); ++l)
        for (std::size_t h = 0; h < scores[l].size(); ++h)
            all.push_back({scores[l][h], {static_cast<int>(l), static_cast<int>(h)}});
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::pair<int, int>> best;
    for (std::size_t i = 0; i < all.size() && i < count; ++i)
        best.push_back(all[i].second);
    return best;
}

std::string HeadCopyScores::csv() const
{
    std::string text = "layer,head,induction_score,previous_token_score\n";
    char line[96];
    for (std::size_t l = 0; l < induction.size(); ++l)
        for (std::size_t h = 0; h < induction[l].size(); ++h) {
            std::snprintf(line, sizeof line, "%zu,%zu,%.6f,%.6f\n", l + 1, h + 1, induction[l][h], previousToken[l][h]);
            text += line;
        }
    return text;
}

std::string HeadCopyScores::toJson() const
{
    nlohmann::json ablated_ = nlohmann::json::array();
    for (const auto& [l, h] : ablated)
        ablated_.push_back(std::to_string(l + 1) + "." + std::to_string(h + 1));
    const auto bi = bestInduction(), bp = bestPreviousToken();
    nlohmann::json j = {{"layers", layers},
                        {"heads", heads},
                        {"length", length},
                        {"sequences", sequences},
                        {"seed", seed},
                        {"induction", induction},
                        {"previous_token", previousToken},
                        {"first_half_loss", firstHalfLoss},
                        {"repeated_half_loss", repeatedHalfLoss},
                        {"best_induction",
                         {{"head", std::to_string(bi.first + 1) + "." + std::to_string(bi.second + 1)},
                          {"score", layers > 0 ? induction[bi.first][bi.second] : 0.0}}},
                        {"best_previous_token",
                         {{"head", std::to_string(bp.first + 1) + "." + std::to_string(bp.second + 1)},
                          {"score", layers > 0 ? previousToken[bp.first][bp.second] : 0.0}}},
                        {"ablated", ablated_},
                        {"seconds", seconds}};
    if (!ablated.empty())
        j["ablation"] = ablation;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
