#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace attnlab {

// attnlab-cli: list | describe | train | presets | stats | fetch | import | runs. Returns the process exit code; 2 for bad usage.
class CliApp {
public:
    CliApp(std::ostream& out, std::ostream& err);
    int run(const std::vector<std::string>& args);

private:
    int list(const std::vector<std::string>& args);
    int describe(const std::vector<std::string>& args);
    int train(const std::vector<std::string>& args);
    int presets(const std::vector<std::string>& args);
    int stats(const std::vector<std::string>& args);
    int fetchOrImport(const std::vector<std::string>& args); // fetch | import
    int usage(const std::string& problem);

    std::ostream& out_;
    std::ostream& err_;
};

} // namespace attnlab
