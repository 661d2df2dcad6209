#pragma once
#include <QtGui/QPen>

#include <string>

namespace attnlab::ui {

// The pen of an explanation method's curve, the same in every view (the typed sentence's deletion curve,
// the run's faithfulness curves): the method's place in AttributionOptions::methods() picks its colour
// from the colour-blind-safe RunPalette; "random", the floor, is a grey dashed line.
class MethodStyle {
public:
    static QPen pen(const std::string& method);
};

} // namespace attnlab::ui
