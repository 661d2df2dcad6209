#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

struct DatasetManifest;
struct InstallReport;

// attnlab-cli fetch DATASET and import DATASET PATH: put a dataset's manifest files into the data folder
// through DatasetInstaller, downloaded or copied from a folder or archive, each sha256-checked and placed
// atomically. Progress goes to stderr (a line that redraws on a terminal, one line per file otherwise);
// Ctrl-C stops the transfer and exits with 130, leaving no partial file.
class InstallCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "fetch" or "import"

private:
    void printReport(const DatasetManifest& manifest, const InstallReport& report, bool importing, bool json);
};

} // namespace attnlab
