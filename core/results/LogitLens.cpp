#include "core/results/LogitLens.h"

#include <nlohmann/json.hpp>

namespace attnlab {

std::string LogitLens::toJson() const
{
    nlohmann::json stages_ = nlohmann::json::array();
    for (std::size_t s = 0; s < top.size(); ++s) {
        nlohmann::json positions = nlohmann::json::array();
        for (std::size_t p = 0; p < top[s].size(); ++p) {
            nlohmann::json guesses = nlohmann::json::array();
            for (const auto& g : top[s][p])
                guesses.push_back({{"token", g.token}, {"id", g.id}, {"probability", g.probability}});
            nlohmann::json position = {{"top", guesses}};
            if (nextProbability[s][p] >= 0.0)
                position["next_probability"] = nextProbability[s][p];
            positions.push_back(std::move(position));
        }
        stages_.push_back({{"stage", stages[s]}, {"positions", positions}});
    }
    return nlohmann::json {{"tokens", tokens}, {"stages", stages_}}.dump(-1, ' ', false,
                                                                         nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
