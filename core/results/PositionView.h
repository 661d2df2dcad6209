#pragma once
#include <string>
#include <vector>

namespace attnlab {

// One picture of a model's position technique (ModelExplainer::positionViews): a matrix (sinusoidal or
// learned position vectors, RPR's key/value tables over relative distances -k..k, ALiBi's bias per head)
// or a curve (RoPE: a query-key score against their distance). Values may be negative: views draw them
// on a scale centred on 0.
struct PositionView {
    std::string name;     // "sinusoidal encodings", "RPR key table (layer 1)", "ALiBi bias (head 2)", ...
    std::string about;    // one sentence on what it shows and how it is computed
    bool curve = false;   // a curve: one row of values over the columns
    std::string rowLabel, columnLabel;
    std::vector<std::string> rows, columns;
    std::vector<float> values; // rows x columns, row-major

    float at(int row, int column) const { return values[static_cast<std::size_t>(row) * columns.size() + column]; }
};

} // namespace attnlab
