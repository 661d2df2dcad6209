#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// A command-line mistake: attnlab-cli prints it with the usage text and exits with 2.
struct CliUsageError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// An error with what to do about it (a model not installed: how to install it): attnlab-cli prints the problem and
// the hint, a line each, and exits with 1.
struct CliHintedError : std::runtime_error {
    CliHintedError(const std::string& problem, std::string hint)
        : std::runtime_error(problem), hint(std::move(hint))
    {
    }
    std::string hint;
};

// The options of one attnlab-cli command: "--flag value" pairs and boolean "--flags" after args[0] (the
// command), plus positional words where the command allows them. Anything unknown is a CliUsageError naming it.
class CliFlags {
public:
    CliFlags(const std::vector<std::string>& args, const std::set<std::string>& valued, const std::set<std::string>& booleans,
             std::size_t maxPositional = 0);

    bool has(const std::string& flag) const;
    std::string text(const std::string& flag, const std::string& fallback) const;
    std::string required(const std::string& flag) const;
    long long integer(const std::string& flag, long long fallback) const;
    double real(const std::string& flag, double fallback) const;
    // A setting overridden by its flag: target takes the flag's value, parsed as target's type, when the
    // flag is given, and keeps its own otherwise (a preset's, a config file's or the default).
    void update(const std::string& flag, int& target) const;
    void update(const std::string& flag, std::uint64_t& target) const;
    void update(const std::string& flag, double& target) const;
    void update(const std::string& flag, std::string& target) const;
    // A required flag's comma-separated items, empty ones dropped ("a,,b," -> a, b).
    std::vector<std::string> list(const std::string& flag) const;
    const std::vector<std::string>& positional() const { return positional_; }

private:
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

} // namespace attnlab
