#include "core/results/PermutationReport.h"

#include <nlohmann/json.hpp>

namespace attnlab {

std::string PermutationReport::toJson() const
{
    nlohmann::json j{{"split", split},
                     {"permutations", permutations},
                     {"seed", seed},
                     {"examples", examples},
                     {"tested", tested},
                     {"complete", complete},
                     {"seconds", seconds},
                     {"median_tvd", medianTvd},
                     {"lower_quartile_tvd", lowerQuartileTvd},
                     {"upper_quartile_tvd", upperQuartileTvd},
                     {"mean_tvd", meanTvd},
                     {"share_below_0.05", shareBelow005},
                     {"share_flipped", shareFlipped},
                     {"by_peak_attention", nlohmann::json::array({
                          {{"peak", "<0.25"}, {"sentences", sentencesByPeak[0]}, {"median_tvd", medianTvdByPeak[0]}},
                          {{"peak", "0.25-0.5"}, {"sentences", sentencesByPeak[1]}, {"median_tvd", medianTvdByPeak[1]}},
                          {{"peak", ">=0.5"}, {"sentences", sentencesByPeak[2]}, {"median_tvd", medianTvdByPeak[2]}}})}};
    if (!note.empty())
        j["note"] = note;
    return j.dump();
}

} // namespace attnlab
