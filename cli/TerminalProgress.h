#pragma once
#include "core/results/TrainingObserver.h"

#include <chrono>
#include <iosfwd>
#include <string>

namespace attnlab {

// attnlab-cli train's progress on stderr: a bar and readable lines on a terminal; JSON lines (one object
// with an "event" each) when stderr is a pipe or a file, for scripts and CI logs. stdout stays free for
// the final --json result. Redraws are throttled (0.1 s on a terminal, 2 s otherwise).
class TerminalProgress : public TrainingObserver {
public:
    explicit TerminalProgress(std::ostream& err);

    void onStarted(const RunInfo& info) override;
    void onProgress(const ProgressEvent& event) override;
    void onMetric(const MetricPoint& point) override;
    void onFinished(const RunSummary& summary) override; // the trainer's own decisions (RunSummary::notes)
    // A line of the command's own (a run finished, the repeats' aggregate): the text on a terminal,
    // {"event": event, "text": text} otherwise.
    void report(const std::string& event, const std::string& text);

private:
    std::ostream& err_;
    bool tty_;
    std::chrono::steady_clock::time_point lastDraw_{};
};

} // namespace attnlab
