#pragma once
#include <string>

namespace attnlab {

// How one run of a sweep ended, from its process's exit code (attnlab-cli train's documented codes:
// 0 completed, 130 cancelled, 3 diverged, anything else failed).
struct SweepOutcome {
    int runIndex = 0;
    std::string label;
    int exitCode = -1;
    std::string status;   // completed | cancelled | diverged | failed
    double seconds = 0.0; // wall time of the process
    std::string logPath;  // its standard error: progress lines and any error message
    std::string message;  // for a failure: the last line of its log

    static std::string statusOfExitCode(int exitCode)
    {
        return exitCode == 0 ? "completed" : exitCode == 130 ? "cancelled" : exitCode == 3 ? "diverged" : "failed";
    }
};

} // namespace attnlab
