#pragma once
#include "core/results/AttentionSnapshot.h"
#include "ui/plots/HeatmapViews.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPAbstractItem;
class QCPItemText;
class QCPTextElement;
class QLabel;
class QPushButton;
class QStackedWidget;
class QMouseEvent;

namespace attnlab::ui {

class AttentionText;

// The probe input's attention as a heatmap, one view at a time with a selector when there are several:
// each layer and head's self-attention (keys on x, queries on y, first token at the top), the pooling
// weights over the tokens (one row), and DA-RNN's input attention (time steps x driving series). A map
// with layer < 0 is an attention rollout over all layers (the explorer adds it). A translation's snapshot
// (crossMaps) shows its alignments first: target words down, source words across, the gold alignment outlined
// where the task has one, for several heads their mean first (what AER reads); then the encoder's and the
// decoder's self-attention.
class AttentionHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit AttentionHeatmap(QWidget* parent = nullptr);

    void setSnapshot(const AttentionSnapshot& snapshot);
    // No map to show: the model has none, or no evaluation has happened yet.
    void showPlaceholder(const QString& text);

    // A title of the caller's instead of the view's ("" = the view's): a single decoding step's row, say.
    void setTitleOverride(const QString& title) { titleOverride_ = title; }
    void setMinimumPlotSize(const QSize& size); // 320 x 300 unless a view needs less (a single row)
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
    // Translation: the cells of the gold alignment outlined on an alignment view (source, target).
    int goldMarkCount() const { return static_cast<int>(goldMarks_.size()); }
    // The values of the view shown (rows x columns, row-major) and its axes' tokens, as drawn.
    std::vector<float> shownValues() const;
    std::vector<std::string> shownRows() const;
    std::vector<std::string> shownColumns() const;
    // How the token labels were fitted to the cells (at 1280x720 side by side they overlapped):
    // the font of each axis's labels, the keys' rotation (0 when every label fits across its cell, else
    // upright), and every how many tokens a label is drawn (1 unless cells are thinner than a 6-point line).
    struct TokenLabels {
        QFont keyFont, queryFont;
        double keyRotation = 0.0;
        int keyStride = 1, queryStride = 1;
        int cellWidth = 0, cellHeight = 0; // pixels
    };
    TokenLabels tokenLabels() const { return tokenLabels_; }
    // The text shaded by the weights of a chosen token under the map (AttentionText): the Explorer's views show it,
    // the small panels side by side do not. Clicking a cell chooses its query there; the chosen or hovered query's
    // row is outlined on the map. Not for a window of time steps.
    void setTextShown(bool shown);
    AttentionText* text() const { return text_; }
    // The cell under the mouse, its row and column outlined and named in a tooltip ("query ‘a’ → key ‘b’: 0.123"),
    // its labels drawn even where the axes show every second one. (-1, -1) when none.
    void hoverCell(int row, int column);
    std::pair<int, int> hoveredCell() const { return hovered_; }
    QString cellText(int row, int column) const;
    int outlinedRow() const { return outlinedRow_; }
    // The map at the screen's size in a window of its own (the Enlarge button, or a double click on the map):
    // a small panel thins its labels out, the enlarged map shows every one. Object name attentionEnlarged.
    QWidget* enlarge();
    // The parts are reached by their object names: attentionMapSelector, attentionPlot, attentionColorMap.

signals:
    // A view was drawn: chosen in the selector, by showView, or the one kept across a new snapshot (a
    // thumbnail grid beside the map outlines it).
    void viewShown(int index);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showMap(int index);
    void mouseOverPlot(QMouseEvent* event);
    std::pair<int, int> cellAt(const QPointF& pixel) const;
    void outlineRow(int row);
    void drawHoverMarks();
    void fillText(); // the text view from the view shown
    void fitTitle();
    int plotAreaWidth() const; // pixels across the cells
    int plotAreaHeight() const;
    std::vector<HeatmapView> views_;
    // Fits the token labels to the cells: font size, rotation, elision and stride (tokenLabels()).
    void fitTokenLabels(const HeatmapView& view);
    TokenLabels tokenLabels_;

    QComboBox* mapSelector_;
    QPushButton* enlargeButton_;
    QLabel* mapLabel_;
    QStackedWidget* stack_;
    QLabel* placeholder_;
    QCustomPlot* plot_;
    QCPTextElement* title_;
    QString fullTitle_; // before fitting it to the width
    QString titleOverride_;
    QCPColorMap* colorMap_;
    QCPColorScale* colorScale_;
    std::vector<QCPItemText*> valueLabels_;
    std::vector<QCPAbstractItem*> goldMarks_;
    std::vector<QCPAbstractItem*> hoverMarks_; // the hovered cell's row and column, the text's query row
    std::pair<int, int> hovered_{-1, -1};
    int outlinedRow_ = -1;
    AttentionText* text_;
    bool textShown_ = false;
    std::optional<AttentionSnapshot> snapshot_;
};

} // namespace attnlab::ui
