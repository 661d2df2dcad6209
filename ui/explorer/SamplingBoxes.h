#pragma once
#include <QString>

class QDoubleSpinBox;
class QSpinBox;

namespace attnlab::ui {

// The four boxes of a draw, temperature, top-k, top-p and seed, set up once for the writing view and the translation
// Explorer: SamplingSettings' bounds (temperature above 0, top-p in (0, 1]), their steps, "all" for no top-k, object
// names prefix + "Temperature", "TopK", "TopP", "Seed", and tooltips naming what is drawn (tokens, words).
class SamplingBoxes {
public:
    static void setUp(QDoubleSpinBox* temperature, QSpinBox* topK, QDoubleSpinBox* topP, QSpinBox* seed, const QString& prefix,
                      const QString& drawn);
};

} // namespace attnlab::ui
