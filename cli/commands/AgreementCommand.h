#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli agreement --runs A,B,... [--split dev|test] [--methods a,b|all] [--limit K] [--ig-steps S]
// [--db FILE] [--json]: do runs that differ only in their seed explain alike (SeedAgreement)? Per method,
// the mean Jensen-Shannon distance between the runs' token distributions, from each run's attention, and
// from uniform. Progress on stderr; Ctrl-C stops early (exit 130, the partial result printed).
class AgreementCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override;
};

} // namespace attnlab
