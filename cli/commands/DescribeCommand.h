#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli describe: builds the model a train command would build and prints its summary and trainable
// parameters (embeddings excluded, the thesis' convention), without training or storing anything.
class DescribeCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "describe"

};

} // namespace attnlab
