#include "core/AttentionSnapshot.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace attnlab {

std::string AttentionSnapshot::toJson() const
{
    nlohmann::json j;
    j["step"] = step;
    j["tokens"] = tokens;
    j["maps"] = nlohmann::json::array();
    for (const auto& m : maps)
        j["maps"].push_back({{"layer", m.layer}, {"head", m.head}, {"size", m.size}, {"weights", m.weights}});
    return j.dump();
}

AttentionSnapshot AttentionSnapshot::fromJson(const std::string& text)
{
    try {
        const auto j = nlohmann::json::parse(text);
        AttentionSnapshot s;
        s.step = j.at("step").get<int>();
        s.tokens = j.at("tokens").get<std::vector<std::string>>();
        for (const auto& m : j.at("maps")) {
            AttentionMap map;
            map.layer = m.at("layer").get<int>();
            map.head = m.at("head").get<int>();
            map.size = m.at("size").get<int>();
            map.weights = m.at("weights").get<std::vector<float>>();
            if (map.weights.size() != static_cast<std::size_t>(map.size) * map.size)
                throw std::invalid_argument("weights do not form a size x size matrix");
            s.maps.push_back(std::move(map));
        }
        return s;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("attention snapshot JSON: ") + e.what());
    }
}

} // namespace attnlab
