#pragma once
#include "core/results/AttentionSnapshot.h"

#include <QWidget>

class QGridLayout;
class QLabel;

namespace attnlab::ui {

// All attention maps of one input at once: a layers x heads grid of small heatmaps (BertViz's model
// view), then the rollout and the pooling weights where there are any. Each thumbnail is a button:
// clicking one asks for it to be shown large (mapClicked with the heatmap's view index).
class AttentionThumbnailGrid : public QWidget {
    Q_OBJECT
public:
    explicit AttentionThumbnailGrid(QWidget* parent = nullptr);

    // The snapshot's maps, each with its AttentionHeatmap view index (maps in order, then pooling, then
    // input attention); a map with layer < 0 is the rollout over all layers, drawn in the last row.
    void setSnapshot(const AttentionSnapshot& snapshot);
    void clear(const QString& why);
    int thumbnailCount() const;      // maps + rollout + pooling + input attention shown
    int selectedView() const { return selected_; }
    void setSelectedView(int view);  // outlines the thumbnail shown large

signals:
    void mapClicked(int view); // the AttentionHeatmap view index

private:
    QGridLayout* grid_;
    QLabel* empty_;
    int selected_ = 0;
};

} // namespace attnlab::ui
