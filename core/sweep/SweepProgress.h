#pragma once
#include <string>
#include <vector>

namespace attnlab {

// What one worker of a local sweep is doing: the run and how far it is (from the child's progress lines).
struct SweepWorkerState {
    int worker = 0;       // 1-based
    int runIndex = 0;
    std::string label;
    int step = 0;
    int totalSteps = 0;   // 0 until the run reports its first progress
    double seconds = 0.0; // since the worker started the run
};

// The whole sweep at one moment, sent about every two seconds.
struct SweepProgress {
    int total = 0;          // runs this execution started with (after resume skipped the completed ones)
    int completed = 0;
    int failed = 0;         // failed or diverged
    int cancelled = 0;
    double etaSeconds = -1; // time left for all of them; -1 until it can be estimated
    std::vector<SweepWorkerState> workers;
};

} // namespace attnlab
