#include "core/results/GeneratedText.h"

#include <nlohmann/json.hpp>

namespace attnlab {

std::string GeneratedText::toJson() const
{
    nlohmann::json steps_ = nlohmann::json::array();
    std::vector<std::string> tokens;
    for (const auto& s : steps) {
        tokens.push_back(s.token);
        nlohmann::json alternatives = nlohmann::json::array();
        for (const auto& a : s.alternatives)
            alternatives.push_back({{"token", a.token}, {"probability", a.probability}});
        nlohmann::json sampled = nlohmann::json::array();
        for (const auto& a : s.sampled)
            sampled.push_back({{"token", a.token}, {"probability", a.probability}});
        nlohmann::json step = {{"token", s.token}, {"probability", s.probability}, {"alternatives", alternatives}, {"sampled", sampled}};
        if (!s.attention.empty()) {
            step["context_start"] = s.contextStart;
            step["attention"] = s.attention; // [layer * heads + head][context position]
        }
        steps_.push_back(std::move(step));
    }
    nlohmann::json j = {{"prompt", prompt},       {"prompt_tokens", promptTokens}, {"text", text},
                        {"tokens", tokens},       {"steps", steps_},             {"layers", layers},
                        {"heads", heads},         {"temperature", temperature},  {"top_k", topK},
                        {"top_p", topP},          {"greedy", greedy},            {"seed", seed},
                        {"seconds", seconds}};
    if (beam > 0) { // a beam's hypothesis: searched, not drawn (the sampling fields say nothing)
        j["beam"] = beam;
        j["log_probability"] = logProbability;
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
