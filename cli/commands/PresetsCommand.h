#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli presets: the thesis experiments' presets (train --preset NAME) with their dataset, length
// and number of runs; --json adds each preset's whole config.
class PresetsCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "presets"

};

} // namespace attnlab
