#include "core/analysis/ThesisReference.h"
#include "core/platform/JsonInteger.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <utility>

namespace attnlab {

const std::vector<std::pair<std::string, std::string>>& embeddedThesisReferences(); // generated (cmake/EmbedJsonFiles.cmake)

namespace {
const char* const kMatchKeys[] = {"dataset", "model", "position", "layers", "d_model", "pooling", "phrases"};
} // namespace

const ThesisReference& ThesisReference::builtIn()
{
    static const ThesisReference references = [] {
        ThesisReference all;
        for (const auto& [name, text] : embeddedThesisReferences()) {
            ThesisReference one = parse(text, "resources/thesis/" + name + ".json");
            all.entries_.insert(all.entries_.end(), one.entries_.begin(), one.entries_.end());
        }
        return all;
    }();
    return references;
}

ThesisReference ThesisReference::parse(const std::string& json, const std::string& source)
{
    ThesisReference refs;
    try {
        const auto doc = nlohmann::json::parse(json);
        for (const auto& e : doc.at("entries")) {
            Entry entry;
            entry.metric = e.at("metric").get<std::string>();
            ThesisValue& v = entry.value;
            v.table = e.at("table").get<std::string>();
            v.label = e.at("label").get<std::string>();
            const double scale = e.value("unit", std::string()) == "%" ? 0.01 : 1.0;
            v.value = e.at("value").get<double>() * scale;
            v.hasStd = e.contains("std");
            v.std = v.hasStd ? e.at("std").get<double>() * scale : 0.0;
            v.runs = JsonInteger::valueOr(e, "runs", 1);
            if (e.contains("top"))
                v.top = e.at("top").get<double>() * scale;
            for (const char* key : kMatchKeys)
                if (e.contains(key))
                    entry.match[key] = e.at(key).is_string() ? e.at(key).get<std::string>() : e.at(key).dump();
            refs.entries_.push_back(std::move(entry));
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(source + ": " + e.what());
    }
    return refs;
}

std::optional<ThesisValue> ThesisReference::find(const std::map<std::string, std::string>& config,
                                                 const std::string& metric, bool regression) const
{
    const std::string wanted = metric == "test" ? (regression ? "test_rmse" : "test_accuracy") : metric;
    const Entry* best = nullptr;
    for (const Entry& entry : entries_) {
        if (entry.metric != wanted)
            continue;
        bool matches = true;
        for (const auto& [key, value] : entry.match) {
            const auto found = config.find(key);
            matches = matches && found != config.end() && found->second == value;
        }
        if (matches && (!best || entry.match.size() > best->match.size()))
            best = &entry;
    }
    return best ? std::optional<ThesisValue>(best->value) : std::nullopt;
}

} // namespace attnlab
