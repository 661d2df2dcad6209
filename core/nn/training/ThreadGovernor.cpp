#include "core/nn/training/ThreadGovernor.h"

#include <algorithm>
#include <cstdio>

namespace attnlab {
namespace {

double mean(const std::vector<double>& v)
{
    double sum = 0.0;
    for (double x : v)
        sum += x;
    return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

std::string ms(double seconds)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f ms", seconds * 1000.0);
    return text;
}

} // namespace

ThreadGovernor::ThreadGovernor(int maxThreads, int busyElsewhere) : max_(std::max(1, maxThreads)), threads_(max_), kept_(max_)
{
    if (max_ > 1 && busyElsewhere >= max_) {
        threads_ = kept_ = 1;
        ++changes_;
        notes_.push_back("threads " + std::to_string(max_) + " -> 1 at the start: " + std::to_string(busyElsewhere) +
                         " threads of other processes were running on the " + std::to_string(max_) + " cores");
    }
}

double ThreadGovernor::share() const
{
    double seconds = 0.0, cpu = 0.0;
    for (const auto& s : window_) {
        seconds += s.seconds;
        cpu += s.cpuSeconds;
    }
    return seconds > 0.0 ? cpu / (seconds * kept_) : 1.0;
}

double ThreadGovernor::keptMean() const
{
    // Over the whole window, as the share is: where the load came a few steps ago, its slow steps weigh by their time.
    double seconds = 0.0;
    for (const auto& s : window_)
        seconds += s.seconds;
    return window_.empty() ? 0.0 : seconds / static_cast<double>(window_.size());
}

bool ThreadGovernor::record(int step, double seconds, double cpuSeconds)
{
    if (max_ == 1 || step <= kStartSteps)
        return false;
    const int before = threads_;
    if (trial_) {
        ++trialSteps_;
        const double kept = keptMean();
        // A step far slower than the kept setting's ends the trial at once: on busy cores every further step of
        // it would cost as much again.
        if (seconds > 2.0 * kept) {
            decide(step, seconds, true);
        } else {
            if (trialSteps_ > kWarmup)
                trialTimes_.push_back(seconds);
            if (static_cast<int>(trialTimes_.size()) >= kSample)
                decide(step, mean(trialTimes_), false);
        }
        return threads_ != before;
    }
    window_.push_back({seconds, cpuSeconds});
    // Keep the newest steps that together last kWindowSeconds (and at least kWindowSteps of them).
    double span = 0.0;
    std::size_t keep = 0;
    for (auto it = window_.rbegin(); it != window_.rend(); ++it, ++keep) {
        if (span >= kWindowSeconds && keep >= static_cast<std::size_t>(kWindowSteps))
            break;
        span += it->seconds;
    }
    window_.erase(window_.begin(), window_.end() - static_cast<std::ptrdiff_t>(keep));
    if (span < kWindowSeconds || static_cast<int>(window_.size()) < kWindowSteps || step < nextAllowed_)
        return false;
    const double got = share();
    if ((kept_ == max_ && got < kBusyShare) || (kept_ == 1 && got > kFreeShare)) {
        shareAtTrial_ = got;
        startTrial(step);
    }
    return threads_ != before;
}

void ThreadGovernor::startTrial(int step)
{
    (void)step;
    trial_ = true;
    trialSteps_ = 0;
    trialTimes_.clear();
    ++trials_;
    threads_ = kept_ == 1 ? max_ : 1;
}

void ThreadGovernor::decide(int step, double trialMean, bool aborted)
{
    const int tried = threads_;
    const double kept = keptMean();
    trial_ = false;
    if (!aborted && trialMean < kMargin * kept) {
        char rate[96];
        std::snprintf(rate, sizeof rate, "each thread had a core %.0f%% of the time", 100.0 * std::min(1.0, shareAtTrial_));
        notes_.push_back("threads " + std::to_string(kept_) + " -> " + std::to_string(tried) + " at step " + std::to_string(step) +
                         ": a step took " + ms(kept) + " with " + std::to_string(kept_) + ", " + ms(trialMean) + " with " +
                         std::to_string(tried) +
                         (tried == 1 ? " (the cores are busy elsewhere: " + std::string(rate) + ")"
                                     : " (the cores are free again: " + std::string(rate) + ")"));
        kept_ = tried;
        ++changes_;
        cooldown_ = kCooldown;
        window_.clear(); // the new setting's steps stand for it from now on
        nextAllowed_ = step + 1;
    } else {
        // The kept count stays; the same evidence would start the same trial at once, so wait, longer each time.
        nextAllowed_ = step + cooldown_;
        cooldown_ = std::min(cooldown_ * 2, 1 << 20);
    }
    threads_ = kept_;
}

} // namespace attnlab
