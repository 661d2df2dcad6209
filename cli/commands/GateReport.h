#pragma once
#include <iosfwd>

namespace attnlab {

class CliFlags;

// attnlab-cli explain --run N --text "..." --gates [--step S] [--json] [--db FILE]: a stored LSTM's or GRU's gates
// (a sentence classifier's through ModelExplainer, a char-RNN's through TextGenerator) over the text. Printed: per
// layer and direction, each gate's mean over its units, one column a token; --json: every unit (GateValues::toJson)
// with the tokens. A model without gates, a translation or time-series run: a usage error naming why (exit 2).
class GateReport {
public:
    static int run(const CliFlags& flags, std::ostream& out);
};

} // namespace attnlab
