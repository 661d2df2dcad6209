#include "cli/TerminalProgress.h"
#include "core/platform/Terminal.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace attnlab {

TerminalProgress::TerminalProgress(std::ostream& err) : err_(err), tty_(Terminal::isTerminal(Terminal::Stream::Error)) {}

void TerminalProgress::onStarted(const RunInfo& info)
{
    if (!tty_) {
        err_ << nlohmann::json{{"event", "started"}, {"model", info.modelSummary}, {"dataset", info.config.dataset},
                               {"device", info.device}, {"torch", info.torchVersion}, {"params", info.parameters},
                               {"seed", info.config.seed}}.dump() << "\n";
    } else {
        err_ << "training " << info.modelSummary << " on " << info.config.dataset << " (" << info.device << ", LibTorch "
             << info.torchVersion << ", " << info.parameters << " parameters, seed " << info.config.seed << ")\n";
    }
    for (const auto& note : info.notes) // what the trainer changed about the data (truncated examples)
        report("note", note);
}

void TerminalProgress::onFinished(const RunSummary& summary)
{
    for (const auto& note : summary.notes) // a cap the start already said is not said again
        if (note.rfind("steps capped at", 0) != 0)
            report("note", note);
}

void TerminalProgress::onProgress(const ProgressEvent& e)
{
    const auto now = std::chrono::steady_clock::now();
    if (now - lastDraw_ < std::chrono::milliseconds(tty_ ? 100 : 2000) && e.step != e.totalSteps)
        return;
    lastDraw_ = now;
    if (tty_) {
        const int width = 30, filled = e.totalSteps ? width * e.step / e.totalSteps : 0;
        err_ << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] " << e.step << "/"
             << e.totalSteps << " loss " << std::fixed << std::setprecision(4) << e.loss << std::flush;
    } else {
        err_ << nlohmann::json{{"event", "progress"}, {"step", e.step}, {"total", e.totalSteps}, {"loss", e.loss},
                               {"seconds", e.elapsedSeconds}}.dump() << "\n";
    }
}

void TerminalProgress::onMetric(const MetricPoint& p)
{
    if (!tty_) {
        if (p.split != "train") // the train series come every --log-every steps: too many lines for a log
            err_ << nlohmann::json{{"event", "metric"}, {"step", p.step}, {"split", p.split}, {"name", p.name},
                                   {"value", p.value}}.dump() << "\n";
        return;
    }
    if (p.split != "dev" || (p.name != "accuracy" && p.name != "rmse"))
        return;
    const bool accuracy = p.name == "accuracy";
    err_ << "\r" << "step " << p.step << ": dev " << p.name << " " << std::fixed << std::setprecision(accuracy ? 2 : 4)
         << (accuracy ? 100.0 * p.value : p.value) << (accuracy ? "%" : "") << std::string(30, ' ') << "\n";
}

void TerminalProgress::report(const std::string& event, const std::string& text)
{
    if (tty_)
        err_ << text << "\n";
    else
        err_ << nlohmann::json{{"event", event}, {"text", text}}.dump() << "\n";
}

} // namespace attnlab
