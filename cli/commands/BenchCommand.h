#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli bench: the thesis' Table 5.4 / 5.7 model characteristics (ModelCharacteristics) for a
// list of models, printed as a table (or JSON) that says what was run, and stored in the run store as
// one run per model, tagged "bench", with the figures in its characteristics. With several models each is
// measured in a fresh process of this program (--one-process: all here), so that one model's peak resident
// memory does not include what the ones before it left in the allocator.
class BenchCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "bench"

};

} // namespace attnlab
