#include "ui/plots/HeatmapViews.h"

#include "core/results/AttentionAverage.h"

#include <algorithm>

namespace attnlab::ui {

std::vector<HeatmapView> HeatmapViews::of(const AttentionSnapshot& snapshot)
{
    std::vector<HeatmapView> views;
    const bool translation = !snapshot.crossMaps.empty();
    if (translation) {
        // Alignments: a row per target word (and <eos>), a column per source word.
        const auto alignmentView = [&](const QString& name, const QString& title, const std::vector<float>& weights) {
            HeatmapView v;
            v.name = name;
            v.title = title;
            v.xLabel = tr("source word");
            v.yLabel = tr("target word");
            v.rows = snapshot.targetTokens;
            v.columns = snapshot.tokens;
            v.values = weights;
            for (const auto& [source, target] : snapshot.goldAlignment)
                v.marks.emplace_back(source, target);
            views.push_back(std::move(v));
        };
        const int lastLayer = snapshot.crossMaps.back().layer;
        const bool severalHeads = snapshot.crossMaps.size() > 1;
        if (severalHeads) {
            alignmentView(tr("alignment · layer %1, mean of heads").arg(lastLayer + 1),
                          tr("alignment: layer %1's cross-attention, its heads averaged").arg(lastLayer + 1),
                          AttentionAverage::ofLastLayer(snapshot.crossMaps).weights);
        }
        for (const auto& m : snapshot.crossMaps)
            alignmentView(severalHeads ? tr("alignment · layer %1 · head %2").arg(m.layer + 1).arg(m.head + 1) : tr("alignment"),
                          severalHeads ? tr("alignment: layer %1, head %2").arg(m.layer + 1).arg(m.head + 1)
                                       : tr("alignment: each target word's attention over the source"),
                          m.weights);
    }
    const bool severalMaps = snapshot.maps.size() > 1;
    // A window's "tokens" are time steps: every axis and title says so.
    const QString unit = snapshot.series ? tr("time step") : tr("token");
    for (const auto& map : snapshot.maps) {
        // The map covers the tokens it was computed for (a model may cap the probe's length).
        const int n = std::min<int>(map.size, static_cast<int>(snapshot.tokens.size()));
        HeatmapView v;
        if (map.layer < 0) { // AttentionRollout: every layer at once
            v.name = tr("rollout (all layers)");
            v.title = tr("attention rollout over all layers");
        } else if (translation) {
            v.name = tr("encoder · layer %1 · head %2").arg(map.layer + 1).arg(map.head + 1);
            v.title = tr("the encoder's self-attention: layer %1, head %2").arg(map.layer + 1).arg(map.head + 1);
        } else {
            v.name = tr("layer %1 · head %2").arg(map.layer + 1).arg(map.head + 1);
            v.title = severalMaps ? tr("layer %1, head %2").arg(map.layer + 1).arg(map.head + 1) : QString();
        }
        v.xLabel = snapshot.series ? tr("key (attended time step)") : tr("key (attended token)");
        v.yLabel = snapshot.series ? tr("query (time step)") : tr("query");
        v.rows.assign(snapshot.tokens.begin(), snapshot.tokens.begin() + n);
        v.columns = v.rows;
        for (int q = 0; q < n; ++q)
            for (int k = 0; k < n; ++k)
                v.values.push_back(map.at(q, k));
        views.push_back(std::move(v));
    }
    for (const auto& map : snapshot.decoderMaps) {
        HeatmapView v;
        v.name = tr("decoder · layer %1 · head %2").arg(map.layer + 1).arg(map.head + 1);
        v.title = tr("the decoder's causal self-attention: layer %1, head %2").arg(map.layer + 1).arg(map.head + 1);
        v.xLabel = tr("key (earlier target word)");
        v.yLabel = tr("query (target word)");
        v.rows = snapshot.targetTokens;
        v.columns = snapshot.targetTokens;
        v.values = map.weights;
        views.push_back(std::move(v));
    }
    if (!snapshot.pooling.empty()) {
        HeatmapView v;
        v.name = QString::fromStdString(snapshot.poolingName.empty() ? "pooling" : snapshot.poolingName);
        v.title = snapshot.series ? tr("%1: the weight of each time step").arg(v.name)
                                  : tr("%1: each token's share of the pooled vector").arg(v.name);
        v.xLabel = unit;
        v.rows = {"weight"};
        const std::size_t n = std::min(snapshot.pooling.size(), snapshot.tokens.size());
        v.columns.assign(snapshot.tokens.begin(), snapshot.tokens.begin() + static_cast<std::ptrdiff_t>(n));
        v.values.assign(snapshot.pooling.begin(), snapshot.pooling.begin() + static_cast<std::ptrdiff_t>(n));
        views.push_back(std::move(v));
    }
    if (!snapshot.inputAttention.empty() && snapshot.inputAttention.size() == snapshot.tokens.size() * snapshot.features.size()) {
        HeatmapView v;
        v.name = tr("input attention");
        v.title = tr("input attention over the driving series");
        v.xLabel = tr("driving series");
        v.yLabel = tr("time step");
        v.rows = snapshot.tokens;
        v.columns = snapshot.features;
        v.values = snapshot.inputAttention;
        views.push_back(std::move(v));
    }
    return views;
}

} // namespace attnlab::ui
