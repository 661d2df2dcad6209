#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace attnlab {

// One attnlab-cli command (cli/commands/*Command): its results go to out, its progress and notes to err,
// and run returns the process exit code. Bad usage throws CliUsageError (CliApp prints it with the usage
// text and exits with 2); any other std::exception is a runtime error (exit 1).
class Command {
public:
    Command(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}
    virtual ~Command() = default;
    Command(const Command&) = delete;
    Command& operator=(const Command&) = delete;

    virtual int run(const std::vector<std::string>& args) = 0; // args[0] is the command's name

protected:
    std::ostream& out_;
    std::ostream& err_;
};

} // namespace attnlab
