#include "core/results/SeedAgreementReport.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attnlab {

const SeedAgreementReport::Method* SeedAgreementReport::find(const std::string& method) const
{
    for (const auto& m : methods)
        if (m.method == method)
            return &m;
    return nullptr;
}

std::string SeedAgreementReport::toJson() const
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& m : methods) {
        nlohmann::json j = {{"method", m.method},         {"sentences", m.sentences}, {"js_across_seeds", m.acrossSeeds},
                            {"js_to_uniform", m.toUniform}};
        j["js_to_attention"] = std::isnan(m.toAttention) ? nlohmann::json(nullptr) : nlohmann::json(m.toAttention);
        if (!m.note.empty())
            j["note"] = m.note;
        list.push_back(std::move(j));
    }
    return nlohmann::json{{"split", split},       {"runs", runs},         {"accuracies", accuracies}, {"examples", examples},
                          {"complete", complete}, {"seconds", seconds},   {"methods", list}}
        .dump();
}

} // namespace attnlab
