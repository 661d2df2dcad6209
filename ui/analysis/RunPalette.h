#pragma once
#include <QtGui/QColor>

namespace attnlab::ui {

// The colours of compared runs or groups: Okabe & Ito's colour-blind-safe palette (black moved last,
// the pale yellow darkened for contrast on white), repeating after eight.
class RunPalette {
public:
    static QColor colour(int index);
    static int size();
};

} // namespace attnlab::ui
