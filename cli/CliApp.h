#pragma once
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

class Command;

// attnlab-cli: hands each command to its class in cli/commands/ (list, describe, train, presets, stats,
// fetch | import, runs, bench, ...) and turns what they throw into the exit code: 2 for a CliUsageError (its
// message and a one-line hint to --help), 1 with "attnlab-cli: message" for any other error (and a line
// "attnlab-cli: hint: ..." after a CliHintedError's). --help and
// --version work alone and after any command. Returns the process exit code.
class CliApp {
public:
    CliApp(std::ostream& out, std::ostream& err);
    int run(const std::vector<std::string>& args);
    static std::string version(); // "attnlab-cli 0.2.0 (git abc123, LibTorch 1.13.0)"

private:
    std::unique_ptr<Command> commandNamed(const std::string& name); // null for an unknown name
    int usage(const std::string& problem);

    std::ostream& out_;
    std::ostream& err_;
};

} // namespace attnlab
