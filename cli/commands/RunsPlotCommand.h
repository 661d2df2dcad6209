#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli runs plot ID... --metric SPLIT_NAME --out FILE.png|svg|pdf: the runs' stored curve of one
// metric drawn to a file, as the window's compare view draws it, through the PlotRenderer the GUI build
// installs (a build without Qt says so). Own options and --help, so it is a command of its own.
class RunsPlotCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "plot"
};

} // namespace attnlab
