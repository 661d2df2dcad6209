#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli stats: what DatasetStatistics measures about a dataset (thesis Table 5.2: examples per split,
// class balance, lengths, vocabulary; embedding coverage with --embeddings), and how long loading took.
class StatsCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "stats"

};

} // namespace attnlab
