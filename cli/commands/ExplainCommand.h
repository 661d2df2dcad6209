#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli explain --run N --text "..." [--step S] [--json] [--db FILE]: what a stored run's model
// makes of a sentence, from its checkpoint (ModelExplainer): tokens, class probabilities, every attention
// map (layers x heads), pooling weights and the rollout. --step S uses the weights saved at S; where none
// were kept it shows the stored snapshot nearest to S instead and says so. A run without usable weights
// (none kept, file gone or changed, a time-series model) is an error naming why (exit 1).
class ExplainCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override;
};

} // namespace attnlab
