#include "core/config/TeachingScenario.h"

#include "core/config/HeadSelection.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <iterator>
#include <utility>

#include <stdexcept>

namespace attnlab {

const std::vector<std::pair<std::string, std::string>>& embeddedScenarios(); // generated (cmake/EmbedJsonFiles.cmake)

namespace {

TeachingScenario::Exploration parseExploration(const nlohmann::json& j, const std::string& source)
{
    if (!j.is_object())
        throw std::invalid_argument(source +
                                    ": 'explore' must be an object {model, view, prompt, ablate, ablation, measure}");
    TeachingScenario::Exploration e;
    const auto text = [&](const char* key, std::string& target, bool required) {
        if (!j.contains(key)) {
            if (required)
                throw std::invalid_argument(source + ": 'explore." + key + "' is missing");
            return;
        }
        if (!j.at(key).is_string() || (required && j.at(key).get<std::string>().empty()))
            throw std::invalid_argument(source + ": 'explore." + key + "' must be a" + (required ? " non-empty" : "") +
                                        " text");
        target = j.at(key).get<std::string>();
    };
    text("model", e.model, true);
    text("view", e.view, true);
    text("prompt", e.prompt, true);
    text("ablate", e.ablate, false);
    if (e.viewIndex() < 0)
        throw std::invalid_argument(
            source + ": 'explore.view' must be \"heads\", \"writing\", \"lens\", \"copy\" or \"step\" (got \"" +
            e.view + "\")");
    // The model's own sizes are checked when it opens; here only the writing: "L.H" pairs, no repeats.
    e.ablate.erase(std::remove(e.ablate.begin(), e.ablate.end(), ' '), e.ablate.end());
    HeadSelection::parse(e.ablate, 1000, 1000, source + ": 'explore.ablate'");
    std::string ablation = "zero";
    text("ablation", ablation, false);
    if (ablation != "zero" && ablation != "mean")
        throw std::invalid_argument(source + ": 'explore.ablation' must be \"zero\" or \"mean\" (got \"" + ablation +
                                    "\")");
    e.ablateMean = ablation == "mean";
    if (j.contains("measure")) {
        if (!j.at("measure").is_boolean())
            throw std::invalid_argument(source + ": 'explore.measure' must be true or false");
        e.measureCopying = j.at("measure").get<bool>();
    }
    for (const auto& [key, value] : j.items())
        if (key != "model" && key != "view" && key != "prompt" && key != "ablate" && key != "ablation" &&
            key != "measure")
            throw std::invalid_argument(source + ": 'explore." + key + "' is not a setting of an exploring lesson");
    return e;
}

} // namespace

int TeachingScenario::Exploration::viewIndex() const
{
    for (int i = 0; i < static_cast<int>(std::size(kViews)); ++i)
        if (view == kViews[i])
            return i;
    return -1;
}

TeachingScenario TeachingScenario::parse(const std::string& json, const std::string& source)
{
    const auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw std::invalid_argument(source + ": not a JSON object");
    TeachingScenario s;
    auto text = [&](const char* key, std::string& target) {
        if (!j.contains(key) || !j.at(key).is_string() || j.at(key).get<std::string>().empty())
            throw std::invalid_argument(source + ": '" + key + "' must be a non-empty text");
        target = j.at(key).get<std::string>();
    };
    text("title", s.title);
    text("description", s.description);
    text("lesson", s.lesson);
    const auto presets = [&](const nlohmann::json& object, const std::string& key) {
        if (!object.contains("presets") || !object.at("presets").is_array())
            throw std::invalid_argument(source + ": '" + key + "' must be a list of preset names");
        std::vector<const TrainPreset*> list;
        for (const auto& name : object.at("presets")) {
            const TrainPreset* preset = name.is_string() ? TrainPreset::find(name.get<std::string>()) : nullptr;
            if (!preset)
                throw std::invalid_argument(source + ": unknown preset " + name.dump() + " in '" + key + "' (attnlab-cli presets)");
            list.push_back(preset);
        }
        if (list.size() < 2 || list.size() > 4)
            throw std::invalid_argument(source + ": a scenario trains 2 to 4 presets side by side (got " +
                                        std::to_string(list.size()) + " in '" + key + "')");
        return list;
    };
    if (j.contains("explore") == j.contains("presets"))
        throw std::invalid_argument(
            source + ": a lesson has either 'presets' (trained side by side) or 'explore' (a pretrained model opened)");
    if (j.contains("explore")) {
        s.explore = parseExploration(j.at("explore"), source);
        for (const char* key : {"opens", "real_data"})
            if (j.contains(key))
                throw std::invalid_argument(source + ": '" + key +
                                            "' belongs to a lesson that trains; this one explores");
        return s;
    }
    s.presets = presets(j, "presets");
    if (j.contains("opens")) {
        if (!j.at("opens").is_string() || (j.at("opens").get<std::string>() != "faithfulness" && j.at("opens").get<std::string>() != "explorer" &&
                                          j.at("opens").get<std::string>() != "compare"))
            throw std::invalid_argument(source + ": 'opens' must be \"faithfulness\", \"explorer\" or \"compare\" (the view the lesson ends in)");
        s.opens = j.at("opens").get<std::string>();
    }
    if (j.contains("real_data")) {
        const auto& real = j.at("real_data");
        if (!real.is_object())
            throw std::invalid_argument(source + ": 'real_data' must be an object {title, lesson, presets}");
        for (const char* key : {"title", "lesson"})
            if (!real.contains(key) || !real.at(key).is_string() || real.at(key).get<std::string>().empty())
                throw std::invalid_argument(source + ": 'real_data." + key + "' must be a non-empty text");
        s.realTitle = real.at("title").get<std::string>();
        s.realLesson = real.at("lesson").get<std::string>();
        s.realPresets = presets(real, "real_data.presets");
        for (const TrainPreset* p : s.realPresets)
            if (p->config.dataset != s.realPresets.front()->config.dataset)
                throw std::invalid_argument(source + ": 'real_data.presets' must train on one dataset");
    }
    return s;
}

const std::vector<TeachingScenario>& TeachingScenario::all()
{
    static const std::vector<TeachingScenario> scenarios = [] {
        std::vector<std::pair<long, TeachingScenario>> numbered;
        for (const auto& [name, text] : embeddedScenarios()) {
            TeachingScenario s = parse(text, "resources/scenarios/" + name + ".json");
            // "2-why-position-matters": the number orders the list (10 after 9, not after 1), the rest is the id.
            const auto dash = name.find('-');
            const bool hasNumber = dash != std::string::npos && dash > 0 && name.find_first_not_of("0123456789") == dash;
            s.id = hasNumber ? name.substr(dash + 1) : name;
            numbered.emplace_back(hasNumber ? std::stol(name.substr(0, dash)) : LONG_MAX, std::move(s));
        }
        std::stable_sort(numbered.begin(), numbered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<TeachingScenario> list;
        for (auto& [number, s] : numbered)
            list.push_back(std::move(s));
        return list;
    }();
    return scenarios;
}

const TeachingScenario* TeachingScenario::find(const std::string& id)
{
    for (const auto& s : all())
        if (s.id == id)
            return &s;
    return nullptr;
}

} // namespace attnlab
