#pragma once
#include "core/results/AttentionSnapshot.h"

#include <QCoreApplication>
#include <QString>

#include <string>
#include <utility>
#include <vector>

namespace attnlab::ui {

// One drawable matrix of a snapshot: rows on y (top first), columns on x.
struct HeatmapView {
    QString name, title, xLabel, yLabel; // yLabel empty: a single row of weights (pooling)
    std::vector<std::string> rows, columns;
    std::vector<float> values;              // rows x columns, row-major
    std::vector<std::pair<int, int>> marks; // cells outlined: (column, row)
};

// The views AttentionHeatmap offers for a snapshot, in its selector's order: a translation's alignments (their mean
// over heads first, the gold alignment as marks), each layer and head's self-attention (a rollout as layer -1), the
// decoder's self-attention, the pooling weights, DA-RNN's input attention over the driving series.
class HeatmapViews {
    Q_DECLARE_TR_FUNCTIONS(HeatmapViews)

public:
    static std::vector<HeatmapView> of(const AttentionSnapshot& snapshot);
};

} // namespace attnlab::ui
