#include "core/config/DecodingSettings.h"

#include <cmath>
#include <sstream>

namespace attnlab {

std::string DecodingSettings::beamProblem(int beamSize)
{
    if (beamSize >= kMinBeam && beamSize <= kMaxBeam)
        return {};
    return "beam_size: " + std::to_string(kMinBeam) + " (greedy) to " + std::to_string(kMaxBeam) + " (got " +
           std::to_string(beamSize) + ")";
}

std::string DecodingSettings::lengthPenaltyProblem(double alpha)
{
    if (std::isfinite(alpha) && alpha >= 0.0 && alpha <= kMaxLengthPenalty)
        return {};
    std::ostringstream text; // "nan", "inf", "7.5": as the user wrote it, not std::to_string's "7.500000"
    text << "length_penalty: GNMT's alpha, 0 (none) to " << kMaxLengthPenalty << " (got " << alpha << ")";
    return text.str();
}

} // namespace attnlab
