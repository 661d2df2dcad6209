#pragma once
#include "core/sweep/SweepObserver.h"

#include <chrono>
#include <iosfwd>

namespace attnlab {

// A local sweep's progress on stderr: a line when a run starts or ends, and every few seconds one line per
// busy worker (run, step/total) and one for the sweep (done, failed, ETA).
class SweepReporter : public SweepObserver {
public:
    explicit SweepReporter(std::ostream& err);
    void onRunStarted(int worker, const SweepRun& run) override;
    void onRunFinished(int worker, const SweepOutcome& outcome) override;
    void onProgress(const SweepProgress& progress) override;

    static std::string duration(double seconds); // "45s", "12m05s", "3h07m"

private:
    std::ostream& err_;
    std::chrono::steady_clock::time_point lastPrinted_;
};

} // namespace attnlab
