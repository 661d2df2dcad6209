#include "core/results/FaithfulnessReport.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>

namespace attnlab {

const FaithfulnessReport::Method* FaithfulnessReport::find(const std::string& method) const
{
    for (const auto& m : methods)
        if (m.method == method)
            return &m;
    return nullptr;
}

std::string FaithfulnessReport::toJson() const
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& m : methods) {
        nlohmann::json j = {{"method", m.method},     {"sentences", m.sentences},         {"deletion", m.deletion},
                            {"insertion", m.insertion}, {"deletion_aopc", m.deletionAopc}, {"insertion_area", m.insertionArea},
                            {"seconds", m.seconds}};
        j["tau_with_attention"] = std::isnan(m.tauWithAttention) ? nlohmann::json(nullptr) : nlohmann::json(m.tauWithAttention);
        if (!m.note.empty())
            j["note"] = m.note;
        if (contrastSentences > 0)
            j["clause_hits"] = m.clauseHits;
        list.push_back(std::move(j));
    }
    nlohmann::json out{{"split", split},         {"examples", examples},      {"seconds", seconds},
                       {"seed", seed},           {"ig_steps", igSteps},       {"ig_baseline", igBaseline},
                       {"occlusion", occlusion}, {"complete", complete},      {"points", kPoints},
                       {"methods", list}};
    if (contrastSentences > 0)
        out["known_answer"] = {{"contrast_sentences", contrastSentences}, {"chance", clauseChance}};
    return out.dump();
}

FaithfulnessReport FaithfulnessReport::fromJson(const std::string& text)
{
    try {
        const auto j = nlohmann::json::parse(text);
        FaithfulnessReport r;
        r.split = j.at("split").get<std::string>();
        r.examples = j.at("examples").get<int>();
        r.seconds = j.value("seconds", 0.0);
        r.seed = j.value("seed", std::uint64_t(0));
        r.igSteps = j.value("ig_steps", 0);
        r.igBaseline = j.value("ig_baseline", std::string());
        r.occlusion = j.value("occlusion", std::string());
        r.complete = j.value("complete", true);
        if (const auto known = j.find("known_answer"); known != j.end()) {
            r.contrastSentences = known->at("contrast_sentences").get<int>();
            r.clauseChance = known->at("chance").get<double>();
        }
        for (const auto& m : j.at("methods")) {
            Method x;
            x.method = m.at("method").get<std::string>();
            x.sentences = m.value("sentences", 0);
            x.deletion = m.at("deletion").get<std::vector<double>>();
            x.insertion = m.at("insertion").get<std::vector<double>>();
            x.deletionAopc = m.value("deletion_aopc", 0.0);
            x.insertionArea = m.value("insertion_area", 0.0);
            const auto& tau = m.value("tau_with_attention", nlohmann::json(nullptr));
            if (tau.is_number())
                x.tauWithAttention = tau.get<double>();
            x.seconds = m.value("seconds", 0.0);
            x.note = m.value("note", std::string());
            x.clauseHits = m.value("clause_hits", 0);
            r.methods.push_back(std::move(x));
        }
        return r;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("a faithfulness report that cannot be read: ") + e.what());
    }
}

} // namespace attnlab
