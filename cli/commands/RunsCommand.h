#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

class CliFlags;
class RunStore;

// attnlab-cli runs list | show | compare | table | export | import | tag | note | rename | delete | groups | plot: the run
// store from a terminal or a
// script. Reads and writes only through RunStore and RunExport, so the GUI's history and this agree, and
// words a run's result through RunResult, as train and the GUI do.
// Throws CliUsageError for bad usage and std::runtime_error (naming the file) for store problems.
class RunsCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "runs"

private:
    int list(RunStore& store, const CliFlags& flags);
    int show(RunStore& store, const CliFlags& flags);
    int exportRuns(RunStore& store, const CliFlags& flags);
    int importRuns(RunStore& store, const CliFlags& flags);
    int tag(RunStore& store, const CliFlags& flags);
    int note(RunStore& store, const CliFlags& flags);
    int groups(RunStore& store, const CliFlags& flags);
    int compare(RunStore& store, const CliFlags& flags);
    int table(RunStore& store, const CliFlags& flags);
    int rename(RunStore& store, const CliFlags& flags);
    int deleteRuns(RunStore& store, const CliFlags& flags);
};

} // namespace attnlab
