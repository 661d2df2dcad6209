#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli runs bleu-by-length ID... [--split test|dev|dev,test] [--buckets 1-5,6-10,11-] [--json]: each stored
// translation run's kept weights translate its own split again (decoded as the run was evaluated), and the
// sentences are scored by their source's length (BleuByLength); on one split the "all" row is the run's stored BLEU.
class RunsBleuByLengthCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "bleu-by-length"
};

} // namespace attnlab
