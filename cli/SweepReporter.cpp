#include "cli/SweepReporter.h"

#include <cstdio>
#include <iomanip>
#include <ostream>

namespace attnlab {

SweepReporter::SweepReporter(std::ostream& err) : err_(err), lastPrinted_(std::chrono::steady_clock::now()) {}

std::string SweepReporter::duration(double seconds)
{
    const long s = static_cast<long>(seconds + 0.5);
    char text[32];
    if (s < 60)
        std::snprintf(text, sizeof text, "%lds", s);
    else if (s < 3600)
        std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
    return text;
}

void SweepReporter::onRunStarted(int worker, const SweepRun& run)
{
    err_ << "[w" << worker << "] run " << run.index << " started: " << run.label() << "\n";
}

void SweepReporter::onRunFinished(int worker, const SweepOutcome& o)
{
    err_ << "[w" << worker << "] run " << o.runIndex << " " << o.status << " in " << duration(o.seconds) << ": " << o.label;
    if (o.status != "completed")
        err_ << " (exit " << o.exitCode << (o.message.empty() ? "" : ": " + o.message) << "; log " << o.logPath << ")";
    err_ << "\n";
}

void SweepReporter::onProgress(const SweepProgress& p)
{
    // Every 10 s: often enough to see it move, rare enough for a log file of a day-long sweep.
    const auto now = std::chrono::steady_clock::now();
    if (now - lastPrinted_ < std::chrono::seconds(10))
        return;
    lastPrinted_ = now;
    for (const auto& w : p.workers) {
        err_ << "[w" << w.worker << "] run " << w.runIndex << " ";
        if (w.totalSteps > 0)
            err_ << "step " << w.step << "/" << w.totalSteps;
        else
            err_ << "starting";
        err_ << " (" << duration(w.seconds) << "): " << w.label << "\n";
    }
    err_ << "sweep: " << p.completed << "/" << p.total << " completed, " << p.failed << " failed, "
         << p.workers.size() << " running, ETA " << (p.etaSeconds < 0 ? std::string("unknown") : duration(p.etaSeconds)) << "\n";
}

} // namespace attnlab
