#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

class CliFlags;
class SweepPlan;

// attnlab-cli sweep SPEC.json | status | collect | cancel: a grid of training runs (core/sweep), expanded,
// listed (--dry-run), run here by LocalExecutor or submitted to Slurm by SlurmExecutor, resumed by
// skipping runs whose configuration the store already holds as completed.
// Exit codes: 0 every run completed (or was already done); 1 a run failed or diverged, or a runtime
// error (Slurm not reachable, store unreadable); 2 bad usage or a bad spec; 130 cancelled (Ctrl-C).
class SweepCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "sweep"

    static const char* help();

private:
    int start(const CliFlags& flags);
    int dryRun(const SweepPlan& plan, const std::string& storePath, bool json);
    int runLocal(const SweepPlan& plan, const CliFlags& flags, const std::string& storePath);
    int submitSlurm(const SweepPlan& plan, const CliFlags& flags, const std::string& storePath);
    int status(const CliFlags& flags, const std::string& id);
    int collect(const CliFlags& flags, const std::string& id);
    int cancel(const CliFlags& flags, const std::string& id);
};

} // namespace attnlab
