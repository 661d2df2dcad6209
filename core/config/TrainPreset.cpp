#include "core/config/TrainPreset.h"


#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace attnlab {

const std::vector<std::pair<std::string, std::string>>& embeddedPresets(); // generated (cmake/EmbedJsonFiles.cmake)

TrainPreset TrainPreset::parse(const std::string& text, const std::string& source)
{
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw std::invalid_argument(source + ": not a JSON object");
    TrainPreset preset;
    try {
        preset.description = j.value("description", std::string());
        if (j.contains("repeats")) {
            // Checked before the cast: nlohmann casts a float such as 1e92 to int without a range check (UB).
            const auto& r = j.at("repeats");
            if (!r.is_number_integer() || r.get<long long>() < 1 || r.get<long long>() > 100000)
                throw std::invalid_argument(source + ": repeats must be a whole number from 1 to 100000 (got " + r.dump() + ")");
            preset.repeats = r.get<int>();
        }
    } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument(source + ": 'description' must be text and 'repeats' a number");
    }
    if (preset.repeats < 1)
        throw std::invalid_argument(source + ": repeats must be at least 1");
    if (j.contains("expected"))
        preset.expected = PresetExpectation::parse(j.at("expected").dump(), source);
    j.erase("description");
    j.erase("repeats");
    j.erase("expected");
    const std::string config = j.dump();
    const auto unknown = TrainConfig::unknownKeys(config);
    if (!unknown.empty())
        throw std::invalid_argument(source + ": unknown key '" + unknown.front() + "'");
    try {
        preset.config = TrainConfig::fromJson(config);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(source + ": " + e.what());
    }
    return preset;
}

TrainPreset TrainPreset::fromFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::invalid_argument(path + ": cannot open the config file");
    std::ostringstream text;
    text << in.rdbuf();
    TrainPreset preset = parse(text.str(), path);
    preset.name = path;
    return preset;
}

const std::vector<TrainPreset>& TrainPreset::all()
{
    static const std::vector<TrainPreset> presets = [] {
        std::vector<TrainPreset> list;
        for (const auto& [name, text] : embeddedPresets()) {
            TrainPreset p = parse(text, "resources/presets/" + name + ".json");
            p.name = name;
            list.push_back(std::move(p));
        }
        return list;
    }();
    return presets;
}

const TrainPreset* TrainPreset::find(const std::string& name)
{
    for (const auto& p : all())
        if (p.name == name)
            return &p;
    return nullptr;
}

} // namespace attnlab
