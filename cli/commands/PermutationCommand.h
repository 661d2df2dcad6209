#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli permutation --run N [--split dev|test] [--permutations P] [--limit K] [--seed S] [--db FILE]
// [--json]: Jain & Wallace's attention permutation test on a stored run's model (AttentionPermutationTest):
// how much the output moves (total variation distance) when every attention distribution is permuted over
// the tokens. Progress on stderr; Ctrl-C stops early (exit 130, the partial result printed).
class PermutationCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override;
};

} // namespace attnlab
