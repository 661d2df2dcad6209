#include "core/sweep/RunQueue.h"

#include <algorithm>

namespace attnlab {

RunQueue::RunQueue(int cores, int concurrency) : cores_(std::max(1, cores)), concurrency_(std::max(1, concurrency)) {}

void RunQueue::clear() { states_.clear(); }

int RunQueue::add()
{
    states_.push_back(State::Queued);
    return size() - 1;
}

void RunQueue::setConcurrency(int runsAtOnce) { concurrency_ = std::max(1, runsAtOnce); }

std::vector<RunQueue::Start> RunQueue::startable(int threadsPerRun) const
{
    const int running = count(State::Running);
    const int queued = count(State::Queued);
    const int together = std::min(concurrency_, running + queued);
    std::vector<Start> starts;
    if (queued == 0 || together <= running)
        return starts;
    // Every run starting now gets the share of the cores it has while `together` train at once.
    const int threads = threadsPerRun > 0 ? threadsPerRun : threadShare(cores_, together);
    for (int i = 0; i < size() && static_cast<int>(starts.size()) < together - running; ++i)
        if (states_[static_cast<std::size_t>(i)] == State::Queued)
            starts.push_back({i, threads});
    return starts;
}

void RunQueue::setState(int index, State state) { states_.at(static_cast<std::size_t>(index)) = state; }

bool RunQueue::cancelQueued(int index)
{
    State& s = states_.at(static_cast<std::size_t>(index));
    if (s != State::Queued)
        return false;
    s = State::Cancelled;
    return true;
}

void RunQueue::cancelAllQueued()
{
    for (State& s : states_)
        if (s == State::Queued)
            s = State::Cancelled;
}

int RunQueue::count(State state) const
{
    return static_cast<int>(std::count(states_.begin(), states_.end(), state));
}

int RunQueue::threadShare(int cores, int runsAtOnce) { return std::max(1, std::max(1, cores) / std::max(1, runsAtOnce)); }

int RunQueue::defaultWorkers(int cores) { return cores <= 2 ? std::max(1, cores) : std::max(1, cores / 2); }

} // namespace attnlab
