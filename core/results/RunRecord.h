#pragma once
#include "core/results/MetricPoint.h"
#include "core/results/RunStatus.h"
#include "core/results/RunSummary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// One row of the runs table as the UI and the CLI see it.
struct RunRecord {
    std::int64_t id = 0;
    std::string uuid;        // 128-bit random hex: the same run in two stores (merge de-duplication)
    std::string name;
    RunStatus status = RunStatus::Running;
    std::string startedAt;   // ISO 8601 UTC
    std::string finishedAt;
    std::string configJson;
    std::string groupKey;    // configJson without "seed", canonical: repeats of one configuration share it
    std::uint64_t seed = 0;
    std::string dataset;
    std::string model;
    std::string position;
    std::string appVersion;
    std::string gitHash;
    std::string torchVersion;
    std::string device;
    std::string host;
    std::int64_t parameters = 0;
    int steps = 0;
    double seconds = 0.0;
    double bestDevAccuracy = 0.0;
    int bestStep = 0;
    double testAccuracy = 0.0;
    std::string message;
    std::vector<std::string> tags;
    std::string notes;
    std::string environmentJson; // app/git/LibTorch versions, device, host, CPU, dataset and file hashes
    std::string summaryJson;     // RunSummary::toJson of the finished run ("" while running)
    // From the summary, for the views that need them without parsing it again.
    bool regression = false;
    double testMacroF1 = 0.0;
    double bestDevRmse = 0.0;
    double testMae = 0.0, testRmse = 0.0, testMape = 0.0;
    bool stoppedEarly = false;

    // The row's result as the trainer reported it (without the confusion matrix, which only summaryJson
    // holds): what RunResult puts into words for the views.
    RunSummary summary() const;
};

// A model characteristic measured for a run (thesis Table 5.4): parameters, peak memory, seconds.
struct Characteristic {
    std::string name;   // e.g. "params", "peak_memory", "train_seconds", "predict_seconds"
    double value = 0.0;
    std::string unit;   // e.g. "", "MB", "s"
};

// A computation made on a finished run and kept with it, so a view shows it without recomputing: e.g. kind
// "faithfulness", key "dev" (the split), json its FaithfulnessReport. One per run, kind and key.
struct StoredAnalysis {
    std::string kind, key, json, createdAt;
};

// A saved model file that belongs to a run.
struct CheckpointRef {
    int step = 0;
    std::string path;
    std::string sha256;
};

// What RunStore::deleteRuns removed: the runs, their rows in every table, and the checkpoint files the
// store had recorded for them (only those; a file another remaining run still refers to is kept).
struct RunDeletion {
    std::vector<std::int64_t> runs; // the ids that were there and are gone
    int metrics = 0, attention = 0, characteristics = 0, checkpoints = 0, analyses = 0; // rows removed
    std::vector<std::string> filesRemoved;
    std::vector<std::string> filesNotRemoved; // "PATH: why" (already gone, no permission, ...)
};

// Repeats of one configuration (one group key) summarised the way the thesis reports: mean ± sample std
// over the completed runs.
struct RunAggregate {
    std::string groupKey;
    std::string dataset;
    std::string model;
    std::string position;
    int runs = 0;              // all runs of the configuration, whatever their status
    int completed = 0;         // the runs the statistics below are over
    bool regression = false;
    double testAccuracyMean = 0.0, testAccuracyStd = 0.0; // classification
    double testRmseMean = 0.0, testRmseStd = 0.0;         // regression
    double bestDevMean = 0.0;  // best dev accuracy (classification) or best dev RMSE (regression)
};

// Everything stored about one run: what export writes and import reads.
struct RunBundle {
    RunRecord record;
    std::vector<MetricPoint> metrics;
    std::vector<std::string> attentionJson; // AttentionSnapshot::toJson per evaluation, by step
    std::vector<Characteristic> characteristics;
    std::vector<CheckpointRef> checkpoints;
    std::vector<StoredAnalysis> analyses;
};

} // namespace attnlab
