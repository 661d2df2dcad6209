#include "core/results/AttentionAverage.h"

#include <algorithm>

namespace attnlab {

AttentionMap AttentionAverage::ofLastLayer(const std::vector<AttentionMap>& maps)
{
    if (maps.empty())
        return {};
    AttentionMap mean = maps.back();
    mean.head = 0;
    std::fill(mean.weights.begin(), mean.weights.end(), 0.0f);
    int heads = 0;
    for (const auto& m : maps)
        if (m.layer == mean.layer && m.weights.size() == mean.weights.size()) {
            for (std::size_t i = 0; i < mean.weights.size(); ++i)
                mean.weights[i] += m.weights[i];
            ++heads;
        }
    for (auto& w : mean.weights)
        w /= static_cast<float>(heads);
    return mean;
}

} // namespace attnlab
