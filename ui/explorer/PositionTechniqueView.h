#pragma once
#include "core/results/PositionView.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QLabel;

namespace attnlab::ui {

// A model's position technique made visible (ModelExplainer::positionViews): position vectors, RPR's
// tables over relative distances, ALiBi's biases as matrices on a scale centred on 0 (blue negative, red
// positive), RoPE's score against distance as a curve; one view at a time with a selector.
class PositionTechniqueView : public QWidget {
    Q_OBJECT
public:
    explicit PositionTechniqueView(QWidget* parent = nullptr);
    void setViews(std::vector<PositionView> views, const QString& emptyReason);
    int viewCount() const { return static_cast<int>(views_.size()); }
    void showView(int index);
    QCustomPlot* plot() const { return plot_; }
    // Parts by object name: positionViewSelector, positionViewPlot, positionViewAbout.

private:
    std::vector<PositionView> views_;
    QComboBox* selector_;
    QLabel* about_;
    QCustomPlot* plot_;
    QCPColorMap* map_;
    QCPColorScale* scale_;
};

} // namespace attnlab::ui
