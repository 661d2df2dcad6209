#include "core/results/Translation.h"

#include "core/results/AttentionAverage.h"

#include <nlohmann/json.hpp>

namespace attnlab {
namespace {

nlohmann::json rowsOf(const AttentionMap& m)
{
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < m.size; ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (int c = 0; c < m.width(); ++c)
            row.push_back(m.at(r, c));
        rows.push_back(std::move(row));
    }
    return rows;
}

nlohmann::json mapsOf(const std::vector<AttentionMap>& maps)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& m : maps)
        out.push_back({{"layer", m.layer}, {"head", m.head}, {"weights", rowsOf(m)}});
    return out;
}

std::vector<std::string> withEos(std::vector<std::string> tokens)
{
    tokens.push_back("<eos>");
    return tokens;
}

} // namespace

std::string Translation::toJson() const
{
    nlohmann::json j = {{"translation", text},
                        {"source_tokens", sourceTokens},
                        {"target_tokens", targetTokens},
                        {"alignment_rows", withEos(targetTokens)},
                        {"probabilities", probabilities},
                        {"score", score},
                        {"beam_size", beamSize},
                        {"length_penalty", lengthPenalty},
                        {"unknown_source_tokens", unknownSourceTokens},
                        {"attention", cross.empty() ? nlohmann::json::array() : rowsOf(AttentionAverage::ofLastLayer(cross))},
                        {"cross_attention", mapsOf(cross)}};
    if (sampled)
        j["sampling"] = {{"temperature", temperature}, {"top_k", topK}, {"top_p", topP}, {"seed", seed}};
    if (!encoderSelf.empty())
        j["encoder_self_attention"] = mapsOf(encoderSelf);
    if (!decoderSelf.empty())
        j["decoder_self_attention"] = mapsOf(decoderSelf);
    if (!alternatives.empty()) {
        auto& rows = j["alternatives"] = nlohmann::json::array();
        for (const auto& row : alternatives) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& a : row)
                list.push_back({{"token", a.token}, {"probability", a.probability}});
            rows.push_back(std::move(list));
        }
    }
    if (forced) {
        j["forced"] = true;
        j["unknown_target_tokens"] = unknownTargetTokens;
    }
    if (!reference.empty()) {
        j["reference"] = reference;
        auto& links = j["gold_alignment"] = nlohmann::json::array();
        for (const auto& l : gold)
            links.push_back({l.source, l.target});
        if (alignmentErrorRate >= 0)
            j["alignment_error_rate"] = alignmentErrorRate;
        if (!headAlignmentErrorRates.empty())
            j["head_alignment_error_rates"] = headAlignmentErrorRates;
    }
    if (!hypotheses.empty()) {
        auto& list = j["hypotheses"] = nlohmann::json::array();
        for (const auto& h : hypotheses)
            list.push_back({{"translation", h.text}, {"tokens", h.tokens}, {"probabilities", h.probabilities},
                            {"log_probability", h.logProbability}, {"score", h.score}, {"finished", h.finished},
                            {"parents", h.parents}, {"cross_attention", mapsOf(h.cross)}});
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace attnlab
