#pragma once
#include "core/AttentionSnapshot.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPTextElement;
class QLabel;
class QStackedWidget;

namespace attnlab::ui {

// The probe sentence's attention weights as a heatmap: keys on x, queries on y (first token at the
// top), tokens as tick labels, one map at a time with a layer/head selector when there are several.
class AttentionHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit AttentionHeatmap(QWidget* parent = nullptr);

    void setSnapshot(const AttentionSnapshot& snapshot);
    // No map to show: the model has none, or no evaluation has happened yet.
    void showPlaceholder(const QString& text);

    bool hasSnapshot() const { return snapshot_.has_value(); }
    const std::optional<AttentionSnapshot>& snapshot() const { return snapshot_; }
    int currentMapIndex() const;
    QString placeholderText() const;
    bool isPlaceholderShown() const;

    QCustomPlot* plot() const { return plot_; }
    QCPColorMap* colorMap() const { return colorMap_; }
    QCPColorScale* colorScale() const { return colorScale_; }
    QComboBox* mapSelector() const { return mapSelector_; }

private:
    void showMap(int index);

    QComboBox* mapSelector_;
    QLabel* mapLabel_;
    QStackedWidget* stack_;
    QLabel* placeholder_;
    QCustomPlot* plot_;
    QCPTextElement* title_;
    QCPColorMap* colorMap_;
    QCPColorScale* colorScale_;
    std::optional<AttentionSnapshot> snapshot_;
};

} // namespace attnlab::ui
