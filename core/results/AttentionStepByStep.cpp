#include "core/results/AttentionStepByStep.h"

#include <nlohmann/json.hpp>

namespace attnlab {

std::string AttentionStepByStep::toJson() const
{
    nlohmann::json j = {{"layer", layer + 1},     {"head", head + 1},          {"query", query},         {"head_size", headSize},
                        {"position", position},   {"scaled", scaled},          {"uniform", uniform},     {"tokens", tokens},
                        {"input", input},         {"q", q},                    {"keys", keys},           {"values", values},
                        {"dot", dot},             {"position_term", positionTerm}, {"divisor", divisor}, {"scores", scores},
                        {"masked", masked},       {"weights", weights},        {"output", output},       {"model_weights", modelWeights}};
    if (!part.empty())
        j["part"] = part;
    if (kvHead >= 0)
        j["kv_head"] = kvHead + 1;
    if (!queryTokens.empty())
        j["query_tokens"] = queryTokens;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
