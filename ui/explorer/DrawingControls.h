#pragma once
#include "core/config/SamplingSettings.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QPushButton;
class QSpinBox;

namespace attnlab::ui {

// The row that makes a translation drawn instead of decoded: each word sampled from the model's distribution by the
// language models' rule (temperature, top-k, top-p, a seed), as `translate --temperature` draws. "Draw again" moves
// to the next seed. Off, the explorer decodes greedily or with its beam.
class DrawingControls : public QWidget {
    Q_OBJECT
public:
    explicit DrawingControls(QWidget* parent = nullptr);
    // The settings while "Draw" is on, nullopt while it is off.
    std::optional<SamplingSettings> sampling() const;
    void setDrawing(bool on);
    void setSeed(int seed);
    void setTemperature(double temperature);

signals:
    void drawingChanged(bool on);
    void drawAgain(); // the seed has moved on: draw with it

private:
    QCheckBox* draw_;
    QDoubleSpinBox* temperature_;
    QSpinBox* topK_;
    QDoubleSpinBox* topP_;
    QSpinBox* seed_;
    QPushButton* again_;
};

} // namespace attnlab::ui
