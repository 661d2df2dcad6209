#pragma once
#include "core/results/AttentionSnapshot.h"
#include "core/results/MetricPoint.h"
#include "core/results/RunSummary.h"
#include "core/results/RunRecord.h"
#include "core/results/ProgressEvent.h"
#include "core/results/RunInfo.h"

namespace attnlab {

// The trainer's only way out: called on the training thread, so implementations must be quick and
// must not touch a GUI (the UI's bridge turns these into queued signals).
class TrainingObserver {
public:
    virtual ~TrainingObserver() = default;
    virtual void onStarted(const RunInfo&) {}
    virtual void onProgress(const ProgressEvent&) {}
    virtual void onMetric(const MetricPoint&) {}
    virtual void onAttention(const AttentionSnapshot&) {}
    virtual void onCheckpoint(const CheckpointRef&) {} // the best-dev weights were saved to a file
    virtual void onFinished(const RunSummary&) {}
};

} // namespace attnlab
