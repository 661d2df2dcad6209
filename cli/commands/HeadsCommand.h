#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli heads --pretrained smollm2-135m --induction [--length N] [--sequences N] [--seed S] [--ablate L.H,...
// [--ablate-mean]] [--data-dir DIR] [--device D] [--json]: which heads of the pretrained language model copy, scored
// as TransformerLens scores induction heads (PretrainedLanguageModel::copyingHeads: random pieces repeated once):
// each head's induction and previous-token score as a layer x head table, the best heads, the loss on the first and
// on the repeated half, the seconds; --json: HeadCopyScores::toJson. A stored run's heads (--run) are not scored
// here: a synthetic-repeat run stores its induction scores with each evaluation (runs show).
class HeadsCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override;
};

} // namespace attnlab
