#pragma once
#include "core/results/TrainingObserver.h"

#include <vector>

namespace attnlab {

// Fans trainer events out to several observers (the store and a UI bridge, say), in order.
class CompositeObserver : public TrainingObserver {
public:
    explicit CompositeObserver(std::vector<TrainingObserver*> observers) : observers_(std::move(observers)) {}
    void onStarted(const RunInfo& e) override { for (auto* o : observers_) o->onStarted(e); }
    void onProgress(const ProgressEvent& e) override { for (auto* o : observers_) o->onProgress(e); }
    void onMetric(const MetricPoint& e) override { for (auto* o : observers_) o->onMetric(e); }
    void onAttention(const AttentionSnapshot& e) override { for (auto* o : observers_) o->onAttention(e); }
    void onCheckpoint(const CheckpointRef& e) override { for (auto* o : observers_) o->onCheckpoint(e); }
    void onFinished(const RunSummary& e) override { for (auto* o : observers_) o->onFinished(e); }

private:
    std::vector<TrainingObserver*> observers_;
};

} // namespace attnlab
