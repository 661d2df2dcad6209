#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli list: the registry's datasets, models (with the position techniques each takes) and
// position techniques, by id; --json for scripts.
class ListCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "list"

};

} // namespace attnlab
