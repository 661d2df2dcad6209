#pragma once
#include <string>
#include <vector>

namespace attnlab {

// The gates of a recurrent model over one input (ModelExplainer::explain, TextGenerator::gates): for every layer
// and direction, each gate's value at every token and unit. An LSTM's are input, forget, candidate, output and
// the cell; a GRU's reset, update and candidate (nn/layers/RecurrentGates has the equations). Empty for a model
// without gates (a plain RNN, a CNN, the self-attention networks).
struct GateValues {
    struct Strip {
        int layer = 0; // 0-based
        std::string direction; // "forward" | "backward"
        std::vector<std::string> gates; // one name per gate
        int tokens = 0, units = 0;
        std::vector<float> values; // [gate][token][unit], row-major

        float at(int gate, int token, int unit) const;
        std::vector<float> meanOverUnits(int gate) const; // one per token: the strip a view draws
        int gateIndex(const std::string& name) const; // -1 when the cell has no such gate
    };
    std::string cell; // "lstm" | "gru"; "" when there are no gates
    std::vector<Strip> strips;

    bool empty() const { return strips.empty(); }
    // {"cell": ..., "layers": [{"layer", "direction", "gates": {name: [[unit values] per token]}, "mean": {name:
    // [...]}}]}
    std::string toJson() const;
};

} // namespace attnlab
