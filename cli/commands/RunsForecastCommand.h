#pragma once
#include "cli/commands/Command.h"

namespace attnlab {

// attnlab-cli runs forecast ID... [--json]: the test forecast each time-series run was stored with (SeriesForecast):
// as CSV, one line per test row with the real value and each run's prediction; with --json, every run's values
// and the attention of each prediction over its window.
class RunsForecastCommand : public Command {
public:
    using Command::Command;
    int run(const std::vector<std::string>& args) override; // args[0] == "forecast"
};

} // namespace attnlab
