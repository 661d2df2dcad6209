#pragma once
#include "core/RunStore.h"
#include "core/TrainingObserver.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace attnlab {

// Writes a run to the store: metrics are buffered and flushed in one transaction at least once a
// second (and at every dev evaluation), so a kill loses at most the last second.
class StoreObserver : public TrainingObserver {
public:
    explicit StoreObserver(RunStore& store);
    ~StoreObserver() override;

    void onStarted(const RunInfo& info) override;
    void onMetric(const MetricPoint& point) override;
    void onAttention(const AttentionSnapshot& snapshot) override;
    void onFinished(const RunSummary& summary) override;

    std::int64_t runId() const { return runId_; }
    void flush();

private:
    RunStore& store_;
    std::int64_t runId_ = 0;
    std::vector<MetricPoint> pending_;
    std::chrono::steady_clock::time_point lastFlush_;
};

} // namespace attnlab
