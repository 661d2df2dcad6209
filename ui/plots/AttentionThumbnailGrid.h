#pragma once
#include "core/results/AttentionSnapshot.h"

#include <QWidget>

#include <optional>

class QButtonGroup;
class QGridLayout;
class QLabel;
class QToolButton;

namespace attnlab::ui {

// All attention maps of one input at once: a layers x heads grid of small heatmaps (BertViz's model
// view), then the rollout and the pooling weights where there are any. Each thumbnail is a button:
// clicking one asks for it to be shown large (mapClicked with the heatmap's view index). A translation's
// snapshot has three such grids, one shown at a time and the others one click away on the bar above it
//: the encoder-decoder attention (cross, with the last layer's mean of heads that is read as the
// alignment), the encoder's self-attention and the decoder's causal self-attention.
class AttentionThumbnailGrid : public QWidget {
    Q_OBJECT
public:
    enum class Group { Cross, Encoder, Decoder }; // a translation's; other snapshots have one grid

    explicit AttentionThumbnailGrid(QWidget* parent = nullptr);

    // The snapshot's maps, each with its AttentionHeatmap view index (a translation's alignments first, then the
    // maps in order, the decoder's, pooling, input attention); a map with layer < 0 is the rollout over all
    // layers, drawn in the last column. The group shown stays across snapshots (a live run's evaluations).
    void setSnapshot(const AttentionSnapshot& snapshot);
    void clear(const QString& why);
    int thumbnailCount() const;      // maps + rollout + pooling + input attention shown
    int selectedView() const { return selected_; }
    // Outlines the thumbnail shown large; for a translation, shows the group that holds it first.
    void setSelectedView(int view);
    Group group() const { return group_; }
    void setGroup(Group group); // a translation's grid to show (the bar's buttons)
    bool isTranslation() const { return snapshot_ && !snapshot_->crossMaps.empty(); }
    void setThumbnailSide(int pixels) { thumbnailSide_ = pixels; } // from the next snapshot on; 76 by default

signals:
    void mapClicked(int view); // the AttentionHeatmap view index

private:
    void rebuild();
    void removeThumbnails(); // with their headers and button group (not the group bar's buttons)
    void addThumbnails(); // the shown group's (all of a snapshot without groups)
    // A translation's view indices, as AttentionHeatmap orders them.
    int crossStart() const;   // 1 when there is a mean of several heads (view 0), else 0
    int encoderStart() const; // after every cross map
    int decoderStart() const; // after the encoder's maps
    Group groupOf(int view) const;

    QWidget* groupBar_;
    QButtonGroup* groupButtons_;
    QToolButton *crossButton_, *encoderButton_, *decoderButton_;
    QGridLayout* grid_;
    QLabel* empty_;
    std::optional<AttentionSnapshot> snapshot_;
    Group group_ = Group::Cross;
    int selected_ = 0;
    int thumbnailSide_ = 76;
};

} // namespace attnlab::ui
