#include "core/sweep/SweepSpec.h"

#include "core/config/TrainConfig.h"
#include "core/config/TrainPreset.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace attnlab {
namespace {

const nlohmann::json& defaults()
{
    static const nlohmann::json j = nlohmann::json::parse(TrainConfig{}.toJson(true)); // every key, optional ones too
    return j;
}

void checkKey(const std::string& where, const std::string& key)
{
    if (defaults().contains(key))
        return;
    std::string keys;
    for (const auto& item : defaults().items())
        keys += (keys.empty() ? "" : ", ") + item.key();
    throw std::invalid_argument(where + ": unknown key '" + key + "' (TrainConfig keys: " + keys + ")");
}

bool isInteger(const nlohmann::json& d) { return d.is_number_integer() || d.is_number_unsigned(); }

// The value must have the JSON type of the key's default (an integer where TrainConfig has an int):
// fromJson alone would turn 0.5 into 0 for an int without a word.
void checkValue(const std::string& where, const std::string& key, const nlohmann::json& value)
{
    checkKey(where, key);
    const auto& d = defaults().at(key);
    const bool ok = d.is_boolean() ? value.is_boolean()
                  : isInteger(d)   ? value.is_number_integer() && !(d.is_number_unsigned() && value.get<long long>() < 0)
                  : d.is_number()  ? value.is_number()
                                   : value.is_string();
    if (!ok)
        throw std::invalid_argument(where + ": key '" + key + "' expects " +
                                    (d.is_boolean() ? "true or false" : isInteger(d) ? "an integer" : d.is_number() ? "a number" : "a string") +
                                    ", got " + value.dump());
}

// A command line's text as the key's JSON type: "20" for steps is 20, "true" for amp is true.
nlohmann::json typed(const std::string& key, const std::string& text)
{
    checkKey("sweep", key);
    const auto& d = defaults().at(key);
    nlohmann::json value = text;
    if (!d.is_string()) {
        value = nlohmann::json::parse(text, nullptr, false);
        if (value.is_discarded())
            value = text; // reported by checkValue with the type it expects
    }
    checkValue("sweep", key, value);
    return value;
}

std::vector<std::string> splitCommas(const std::string& text)
{
    std::vector<std::string> items;
    for (std::string rest = text;;) {
        const auto comma = rest.find(',');
        if (!rest.substr(0, comma).empty())
            items.push_back(rest.substr(0, comma));
        if (comma == std::string::npos)
            return items;
        rest = rest.substr(comma + 1);
    }
}

} // namespace

SweepSpec SweepSpec::parse(const std::string& json, const std::string& source)
{
    // ordered_json keeps the grid's keys in file order: the first key varies slowest.
    nlohmann::ordered_json j;
    try {
        j = nlohmann::ordered_json::parse(json);
    } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number like 1e999
        throw std::invalid_argument(source + ": not valid JSON (" + std::string(e.what()) + ")");
    }
    if (!j.is_object())
        throw std::invalid_argument(source + ": expected a JSON object with \"grid\" (and optionally \"presets\", \"base\", \"repeats\", \"name\")");
    SweepSpec spec;
    for (const auto& [key, value] : j.items()) {
        const std::string where = source + ": \"" + key + "\"";
        if (key == "name") {
            if (!value.is_string())
                throw std::invalid_argument(where + " expects a string");
            spec.name = value.get<std::string>();
        } else if (key == "repeats") {
            if (!value.is_number_integer() || value.get<long long>() < 1 || value.get<long long>() > 100000)
                throw std::invalid_argument(where + " expects an integer from 1 to 100000, got " + value.dump());
            spec.repeats = value.get<int>();
        } else if (key == "presets") {
            if (!value.is_array() || value.empty())
                throw std::invalid_argument(where + " expects a non-empty list of preset names (attnlab-cli presets)");
            std::vector<std::string> names;
            for (const auto& v : value) {
                if (!v.is_string())
                    throw std::invalid_argument(where + " expects preset names, got " + v.dump());
                names.push_back(v.get<std::string>());
            }
            try {
                spec.setPresets(names);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(source + ": " + e.what());
            }
        } else if (key == "base") {
            if (!value.is_object())
                throw std::invalid_argument(where + " expects an object of TrainConfig keys, e.g. {\"steps\": 2000}");
            for (const auto& [k, v] : value.items())
                checkValue(where, k, nlohmann::json::parse(v.dump()));
            spec.baseJson = value.dump();
        } else if (key == "grid") {
            if (!value.is_object())
                throw std::invalid_argument(where + " expects an object of TrainConfig keys to lists, e.g. {\"model\": [\"ssan\", \"lstm\"]}");
            for (const auto& [k, list] : value.items()) {
                const std::string at = source + ": grid key '" + k + "'";
                if (!list.is_array() || list.empty())
                    throw std::invalid_argument(at + " expects a non-empty list of values, e.g. [" +
                                                (list.is_array() ? "..." : list.dump()) + "]");
                std::vector<std::string> values;
                for (const auto& v : list) {
                    checkValue(source + ": grid", k, nlohmann::json::parse(v.dump()));
                    values.push_back(v.dump());
                }
                spec.axes.emplace_back(k, values);
            }
        } else {
            throw std::invalid_argument(source + ": unknown key '" + key + "' (known: name, presets, base, grid, repeats)");
        }
    }
    bool seedAxis = false;
    for (const auto& axis : spec.axes)
        seedAxis = seedAxis || axis.first == "seed";
    if (seedAxis && spec.repeats > 0)
        throw std::invalid_argument(source + ": \"repeats\" and a \"seed\" grid both choose the seeds: give one of them");
    return spec;
}

SweepSpec SweepSpec::fromFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::invalid_argument(path + ": cannot open the sweep spec (a JSON file; attnlab-cli sweep --help)");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

void SweepSpec::setAxisFromText(const std::string& key, const std::string& commaList)
{
    std::vector<std::string> values;
    for (const auto& item : splitCommas(commaList))
        values.push_back(typed(key, item).dump());
    if (values.empty())
        throw std::invalid_argument("sweep: key '" + key + "' has no values");
    for (auto& axis : axes)
        if (axis.first == key) {
            axis.second = values;
            return;
        }
    axes.emplace_back(key, values);
}

void SweepSpec::setBaseFromText(const std::string& key, const std::string& value)
{
    auto base = nlohmann::ordered_json::parse(baseJson);
    base[key] = typed(key, value);
    baseJson = base.dump();
}

void SweepSpec::setPresets(const std::vector<std::string>& names)
{
    for (const auto& name : names)
        if (!TrainPreset::find(name)) {
            std::string known;
            for (const auto& p : TrainPreset::all())
                known += (known.empty() ? "" : ", ") + p.name;
            throw std::invalid_argument("unknown preset '" + name + "' (known: " + known + ")");
        }
    presets = names;
}

std::string SweepSpec::toJson() const
{
    nlohmann::ordered_json j;
    j["name"] = name;
    if (!presets.empty())
        j["presets"] = presets;
    j["base"] = nlohmann::ordered_json::parse(baseJson);
    nlohmann::ordered_json grid = nlohmann::ordered_json::object();
    for (const auto& [key, values] : axes) {
        grid[key] = nlohmann::ordered_json::array();
        for (const auto& v : values)
            grid[key].push_back(nlohmann::ordered_json::parse(v));
    }
    j["grid"] = grid;
    if (repeats > 0)
        j["repeats"] = repeats;
    return j.dump(2);
}

} // namespace attnlab
