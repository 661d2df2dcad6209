#include "core/results/TokenAttribution.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attnlab {

std::string TokenAttribution::toJson() const
{
    nlohmann::json j = {{"method", method}, {"tokens", tokens}, {"scores", scores}, {"target_class", targetClass},
                        {"probability", probability}, {"available", available()}, {"seconds", seconds}};
    if (!note.empty())
        j["note"] = note;
    if (!std::isnan(completenessGap)) {
        j["baseline"] = baseline;
        j["steps"] = steps;
        j["baseline_probability"] = baselineProbability;
        j["completeness_gap"] = completenessGap;
    }
    return j.dump();
}

} // namespace attnlab
