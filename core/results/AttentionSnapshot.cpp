#include "core/results/AttentionSnapshot.h"
#include "core/platform/JsonInteger.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace attnlab {

namespace {

int wholeNumber(const nlohmann::json& value, const char* key)
{
    if (const auto v = JsonInteger::of<int>(value))
        return *v;
    throw std::invalid_argument(std::string("'") + key + "' is not a whole number in range (got " + value.dump() + ")");
}

} // namespace

std::string AttentionSnapshot::toJson() const
{
    nlohmann::json j;
    j["step"] = step;
    if (probe > 0)
        j["probe"] = probe;
    if (!probeLabel.empty())
        j["probe_label"] = probeLabel;
    j["tokens"] = tokens;
    j["maps"] = nlohmann::json::array();
    for (const auto& m : maps)
        j["maps"].push_back({{"layer", m.layer}, {"head", m.head}, {"size", m.size}, {"weights", m.weights}});
    if (!pooling.empty()) {
        j["pooling"] = pooling;
        j["pooling_name"] = poolingName;
    }
    if (series)
        j["series"] = true;
    if (trueDriver >= 0 || trueLag >= 0) {
        j["true_driver"] = trueDriver;
        j["true_lag"] = trueLag;
    }
    if (!probabilities.empty()) {
        j["classes"] = classes;
        j["probabilities"] = probabilities;
    }
    if (!inputAttention.empty()) {
        j["features"] = features;
        j["input_attention"] = inputAttention;
    }
    if (!sample.empty())
        j["sample"] = sample;
    if (!targetTokens.empty()) {
        j["target_tokens"] = targetTokens;
        j["translation"] = translation;
        if (!goldAlignment.empty())
            j["gold_alignment"] = goldAlignment;
        for (const auto* list : {&crossMaps, &decoderMaps}) {
            auto& out = j[list == &crossMaps ? "cross_maps" : "decoder_maps"] = nlohmann::json::array();
            for (const auto& m : *list)
                out.push_back({{"layer", m.layer}, {"head", m.head}, {"rows", m.size}, {"columns", m.width()}, {"weights", m.weights}});
        }
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

AttentionSnapshot AttentionSnapshot::fromJson(const std::string& text)
{
    try {
        const auto j = nlohmann::json::parse(text);
        AttentionSnapshot s;
        s.step = wholeNumber(j.at("step"), "step");
        s.probe = j.contains("probe") ? wholeNumber(j.at("probe"), "probe") : 0;
        s.probeLabel = j.value("probe_label", std::string());
        s.tokens = j.at("tokens").get<std::vector<std::string>>();
        for (const auto& m : j.at("maps")) {
            AttentionMap map;
            map.layer = wholeNumber(m.at("layer"), "layer");
            map.head = wholeNumber(m.at("head"), "head");
            map.size = wholeNumber(m.at("size"), "size");
            map.weights = m.at("weights").get<std::vector<float>>();
            if (map.weights.size() != static_cast<std::size_t>(map.size) * map.size)
                throw std::invalid_argument("weights do not form a size x size matrix");
            s.maps.push_back(std::move(map));
        }
        if (j.contains("pooling")) {
            s.pooling = j.at("pooling").get<std::vector<float>>();
            s.poolingName = j.value("pooling_name", std::string());
            if (s.pooling.size() != s.tokens.size())
                throw std::invalid_argument("pooling weights do not match the tokens");
        }
        if (j.contains("input_attention")) {
            s.features = j.at("features").get<std::vector<std::string>>();
            s.inputAttention = j.at("input_attention").get<std::vector<float>>();
            if (s.inputAttention.size() != s.tokens.size() * s.features.size())
                throw std::invalid_argument("input attention does not form a steps x features matrix");
        }
        s.sample = j.value("sample", std::string());
        if (j.contains("target_tokens")) {
            s.targetTokens = j.at("target_tokens").get<std::vector<std::string>>();
            s.translation = j.value("translation", std::string());
            for (const auto& link : j.value("gold_alignment", nlohmann::json::array())) {
                const int source = wholeNumber(link.at(0), "gold_alignment"), target = wholeNumber(link.at(1), "gold_alignment");
                if (source < 0 || target < 0 || static_cast<std::size_t>(source) >= s.tokens.size() ||
                    static_cast<std::size_t>(target) >= s.targetTokens.size())
                    throw std::invalid_argument("gold_alignment: a link outside the source or the target");
                s.goldAlignment.emplace_back(source, target);
            }
            for (const char* key : {"cross_maps", "decoder_maps"}) {
                const bool cross = std::string(key) == "cross_maps";
                for (const auto& m : j.value(key, nlohmann::json::array())) {
                    AttentionMap map;
                    map.layer = wholeNumber(m.at("layer"), "layer");
                    map.head = wholeNumber(m.at("head"), "head");
                    map.size = wholeNumber(m.at("rows"), "rows");
                    map.columns = wholeNumber(m.at("columns"), "columns");
                    map.weights = m.at("weights").get<std::vector<float>>();
                    const std::size_t rows = s.targetTokens.size(), columns = cross ? s.tokens.size() : s.targetTokens.size();
                    if (static_cast<std::size_t>(map.size) != rows || static_cast<std::size_t>(map.columns) != columns ||
                        map.weights.size() != rows * columns)
                        throw std::invalid_argument(std::string(key) + ": weights do not form a target x " +
                                                    (cross ? "source" : "target") + " matrix");
                    (cross ? s.crossMaps : s.decoderMaps).push_back(std::move(map));
                }
            }
        }
        if (j.contains("probabilities")) {
            s.classes = j.at("classes").get<std::vector<std::string>>();
            s.probabilities = j.at("probabilities").get<std::vector<float>>();
            if (s.probabilities.size() != s.classes.size())
                throw std::invalid_argument("probabilities do not match the classes");
        }
        s.trueDriver = JsonInteger::valueOr(j, "true_driver", -1);
        s.trueLag = JsonInteger::valueOr(j, "true_lag", -1);
        // Snapshots stored before the flag existed: a window's steps were always named t-N.
        s.series = j.contains("series") ? j.at("series").get<bool>()
                                        : !s.tokens.empty() && std::all_of(s.tokens.begin(), s.tokens.end(), [](const std::string& t) {
                                              return t.size() > 2 && t.compare(0, 2, "t-") == 0 &&
                                                     t.find_first_not_of("0123456789", 2) == std::string::npos;
                                          });
        return s;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("attention snapshot JSON: ") + e.what());
    }
}

} // namespace attnlab
