#pragma once
#include "core/results/AttentionSnapshot.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPItemText;
class QCPTextElement;
class QLabel;
class QStackedWidget;

namespace attnlab::ui {

// The probe input's attention as a heatmap, one view at a time with a selector when there are several:
// each layer and head's self-attention (keys on x, queries on y, first token at the top), the pooling
// weights over the tokens (one row), and DA-RNN's input attention (time steps x driving series). A map
// with layer < 0 is an attention rollout over all layers (the explorer adds it).
class AttentionHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit AttentionHeatmap(QWidget* parent = nullptr);

    void setSnapshot(const AttentionSnapshot& snapshot);
    // No map to show: the model has none, or no evaluation has happened yet.
    void showPlaceholder(const QString& text);

    bool hasSnapshot() const { return snapshot_.has_value(); }
    const std::optional<AttentionSnapshot>& snapshot() const { return snapshot_; }
    int currentMapIndex() const; // the selector's row: maps first, then pooling, then input attention
    void showView(int index);    // selects that row (the explorer's thumbnails)
    int viewCount() const { return static_cast<int>(views_.size()); }
    QString placeholderText() const;
    QString titleText() const; // as drawn: on two lines, elided, when it is wider than the plot
    QString fullTitle() const { return fullTitle_; }
    bool isPlaceholderShown() const;

    // A single-row view (pooling weights) also prints each weight on its cell: near-uniform weights all
    // look like the top of the colour scale, and the numbers tell them apart.
    int valueLabelCount() const { return static_cast<int>(valueLabels_.size()); }
    // The parts are reached by their object names: attentionMapSelector, attentionPlot, attentionColorMap.

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showMap(int index);
    void fitTitle();
    int plotAreaWidth() const; // pixels across the cells
    // One drawable matrix: rows on y (top first), columns on x.
    struct View {
        QString name, title, xLabel, yLabel;
        std::vector<std::string> rows, columns;
        std::vector<float> values; // rows x columns, row-major
    };
    std::vector<View> views_;

    QComboBox* mapSelector_;
    QLabel* mapLabel_;
    QStackedWidget* stack_;
    QLabel* placeholder_;
    QCustomPlot* plot_;
    QCPTextElement* title_;
    QString fullTitle_; // before fitting it to the width
    QCPColorMap* colorMap_;
    QCPColorScale* colorScale_;
    std::vector<QCPItemText*> valueLabels_;
    std::optional<AttentionSnapshot> snapshot_;
};

} // namespace attnlab::ui
