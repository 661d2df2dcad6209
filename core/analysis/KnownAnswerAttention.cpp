#include "core/analysis/KnownAnswerAttention.h"

#include <algorithm>

namespace attnlab {

std::optional<KnownAnswerAttention> KnownAnswerAttention::of(const AttentionSnapshot& s)
{
    if (s.trueDriver < 0 || s.trueLag < 0 || s.tokens.empty())
        return std::nullopt;
    KnownAnswerAttention k;
    k.lag = s.trueLag;
    const std::size_t steps = s.tokens.size(), drivers = s.features.size();
    if (static_cast<std::size_t>(s.trueDriver) < drivers) {
        k.driver = s.features[static_cast<std::size_t>(s.trueDriver)];
        k.driverUniform = 1.0 / static_cast<double>(drivers);
        if (s.inputAttention.size() == steps * drivers) {
            double sum = 0.0;
            for (std::size_t t = 0; t < steps; ++t)
                sum += s.inputAttention[t * drivers + static_cast<std::size_t>(s.trueDriver)];
            k.driverShare = sum / static_cast<double>(steps);
        }
    }
    k.lagUniform = 1.0 / static_cast<double>(steps);
    const auto at = std::find(s.tokens.begin(), s.tokens.end(), "t-" + std::to_string(s.trueLag));
    if (at != s.tokens.end() && s.pooling.size() == steps)
        k.lagShare = s.pooling[static_cast<std::size_t>(at - s.tokens.begin())];
    return k;
}

} // namespace attnlab
