#include "core/analysis/AttentionRollout.h"

#include <algorithm>
#include <map>

namespace attnlab {

std::optional<AttentionMap> AttentionRollout::of(const std::vector<AttentionMap>& maps)
{
    if (maps.empty())
        return std::nullopt;
    const int n = maps.front().size;
    const auto cells = static_cast<std::size_t>(n) * n;
    // Heads averaged per layer, in layer order.
    std::map<int, std::pair<std::vector<double>, int>> layers; // layer -> (sum of heads, head count)
    for (const auto& m : maps) {
        if (m.size != n || m.weights.size() != cells)
            return std::nullopt; // maps of different inputs: no rollout
        auto& [sum, heads] = layers[m.layer];
        sum.resize(cells, 0.0);
        for (std::size_t i = 0; i < cells; ++i)
            sum[i] += m.weights[i];
        ++heads;
    }
    std::vector<double> rollout(cells, 0.0);
    for (int i = 0; i < n; ++i)
        rollout[static_cast<std::size_t>(i) * n + i] = 1.0;
    std::vector<double> mixed(cells), next(cells);
    for (const auto& [layer, entry] : layers) {
        const auto& [sum, heads] = entry;
        for (int q = 0; q < n; ++q) {
            double rowSum = 0.0;
            for (int k = 0; k < n; ++k) {
                const std::size_t i = static_cast<std::size_t>(q) * n + k;
                mixed[i] = 0.5 * sum[i] / heads + (q == k ? 0.5 : 0.0);
                rowSum += mixed[i];
            }
            for (int k = 0; k < n; ++k)
                mixed[static_cast<std::size_t>(q) * n + k] /= rowSum > 0.0 ? rowSum : 1.0;
        }
        // rollout <- mixed · rollout: later layers multiply from the left.
        std::fill(next.begin(), next.end(), 0.0);
        for (int q = 0; q < n; ++q)
            for (int m = 0; m < n; ++m) {
                const double a = mixed[static_cast<std::size_t>(q) * n + m];
                for (int k = 0; k < n; ++k)
                    next[static_cast<std::size_t>(q) * n + k] += a * rollout[static_cast<std::size_t>(m) * n + k];
            }
        rollout.swap(next);
    }
    AttentionMap out;
    out.layer = -1;
    out.head = -1;
    out.size = n;
    out.weights.assign(rollout.begin(), rollout.end());
    return out;
}

} // namespace attnlab
