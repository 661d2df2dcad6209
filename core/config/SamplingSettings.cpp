#include "core/config/SamplingSettings.h"

#include <cmath>

namespace attnlab {

std::string SamplingSettings::problem() const
{
    if (!(std::isfinite(temperature) && temperature > 0.0))
        return "temperature: must be a positive number (got " + std::to_string(temperature) + "); for the likeliest token every time use greedy";
    if (topK < 0)
        return "top_k: must be 0 (every token) or positive (got " + std::to_string(topK) + ")";
    if (!(std::isfinite(topP) && topP > 0.0 && topP <= 1.0))
        return "top_p: must be in (0, 1] (got " + std::to_string(topP) + ")";
    if (tokens < 1 || tokens > kMaxTokens)
        return "tokens: must be 1 to " + std::to_string(kMaxTokens) + " (got " + std::to_string(tokens) + ")";
    return {};
}

} // namespace attnlab
