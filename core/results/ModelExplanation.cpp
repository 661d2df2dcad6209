#include "core/results/ModelExplanation.h"

#include <nlohmann/json.hpp>

namespace attnlab {

int ModelExplanation::unknownCount() const
{
    int count = 0;
    for (bool u : unknown)
        count += u ? 1 : 0;
    return count;
}

std::vector<std::string> ModelExplanation::notes() const
{
    std::vector<std::string> out;
    if (truncatedTokens > 0)
        out.push_back("the input was cut to the model's " + std::to_string(maxLength) + " tokens (max_length): " +
                      std::to_string(truncatedTokens) + " dropped");
    if (const int n = unknownCount(); n > 0) {
        std::string words;
        for (std::size_t i = 0; i < tokens.size(); ++i)
            if (unknown[i])
                words += (words.empty() ? "" : ", ") + tokens[i];
        out.push_back(std::to_string(n) + (n == 1 ? " token" : " tokens") +
                      (weights == "pretrained" ? " not in the model's vocabulary (it sees [UNK]): "
                                               : " not in the training vocabulary (the model sees <unk>): ") + words);
    }
    return out;
}

std::string ModelExplanation::toJson() const
{
    nlohmann::json maps = nlohmann::json::array();
    for (const auto& m : attention.maps)
        maps.push_back({{"layer", m.layer}, {"head", m.head}, {"size", m.size}, {"weights", m.weights}});
    nlohmann::json j = {{"text", text},
                        {"tokens", tokens},
                        {"unknown", unknown},
                        {"truncated_tokens", truncatedTokens},
                        {"max_length", maxLength},
                        {"classes", classNames},
                        {"probabilities", probabilities},
                        {"predicted", predicted >= 0 && predicted < static_cast<int>(classNames.size())
                                          ? nlohmann::json(classNames[predicted])
                                          : nlohmann::json(nullptr)},
                        {"weights", weights},
                        {"step", step},
                        {"maps", std::move(maps)},
                        {"notes", notes()}};
    if (!attention.pooling.empty())
        j["pooling"] = {{"name", attention.poolingName}, {"weights", attention.pooling}};
    if (rollout)
        j["rollout"] = rollout->weights;
    if (!pieceWords.empty())
        j["piece_words"] = pieceWords;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
