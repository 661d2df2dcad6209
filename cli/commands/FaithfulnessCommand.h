#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli faithfulness --run N [--split dev|test] [--methods a,b|all] [--limit K] [--ig-steps S]
// [--seed S] [--recompute] [--db FILE] [--json]: how faithful each explanation method is to a stored run's
// model over a split (FaithfulnessEvaluator: deletion and insertion curves, AOPC, a random order, Kendall's
// tau with attention). Progress on stderr, Ctrl-C stops early (the partial report says so and is not
// stored). A complete report is stored with the run (analysis "faithfulness", key: the split) and shown
// from the store next time unless --recompute or other options are given.
class FaithfulnessCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override;
};

} // namespace attnlab
