#include "core/results/GateValues.h"

#include <nlohmann/json.hpp>

namespace attnlab {

float GateValues::Strip::at(int gate, int token, int unit) const
{
    return values[(static_cast<std::size_t>(gate) * static_cast<std::size_t>(tokens) +
                   static_cast<std::size_t>(token)) *
                      static_cast<std::size_t>(units) +
                  static_cast<std::size_t>(unit)];
}

std::vector<float> GateValues::Strip::meanOverUnits(int gate) const
{
    std::vector<float> mean(static_cast<std::size_t>(tokens), 0.0f);
    for (int t = 0; t < tokens; ++t) {
        double sum = 0.0;
        for (int u = 0; u < units; ++u)
            sum += at(gate, t, u);
        mean[static_cast<std::size_t>(t)] = units > 0 ? static_cast<float>(sum / units) : 0.0f;
    }
    return mean;
}

int GateValues::Strip::gateIndex(const std::string& name) const
{
    for (std::size_t g = 0; g < gates.size(); ++g)
        if (gates[g] == name)
            return static_cast<int>(g);
    return -1;
}

std::string GateValues::toJson() const
{
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& s : strips) {
        nlohmann::json values = nlohmann::json::object(), means = nlohmann::json::object();
        for (int g = 0; g < static_cast<int>(s.gates.size()); ++g) {
            nlohmann::json perToken = nlohmann::json::array();
            for (int t = 0; t < s.tokens; ++t) {
                const auto from = s.values.begin() + (static_cast<std::ptrdiff_t>(g) * s.tokens + t) * s.units;
                perToken.push_back(std::vector<float>(from, from + s.units));
            }
            values[s.gates[static_cast<std::size_t>(g)]] = std::move(perToken);
            means[s.gates[static_cast<std::size_t>(g)]] = s.meanOverUnits(g);
        }
        layers.push_back(
            {{"layer", s.layer}, {"direction", s.direction}, {"units", s.units}, {"gates", values}, {"mean", means}});
    }
    return nlohmann::json {{"cell", cell}, {"layers", layers}}.dump();
}

} // namespace attnlab
