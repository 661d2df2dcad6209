#pragma once
#include "core/results/AttentionSnapshot.h"
#include "core/results/MetricPoint.h"
#include "core/store/RunFilter.h"
#include "core/results/RunRecord.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

class SqliteConnection;

// The run store's read queries (private to core/store): runs, filtered and sorted, and what belongs to
// one run (metrics, attention snapshots, characteristics, checkpoints), alone or all at once. Takes no
// lock: RunStore holds its own around every call.
class RunQueries {
public:
    explicit RunQueries(const SqliteConnection& connection);

    std::vector<RunRecord> listRuns(const RunFilter& filter) const;
    std::optional<RunRecord> run(std::int64_t runId) const;
    std::vector<MetricPoint> metrics(std::int64_t runId) const; // by step, then as appended
    std::vector<std::pair<int, double>> metricSeries(std::int64_t runId, const std::string& split,
                                                     const std::string& name) const;
    std::optional<AttentionSnapshot> latestAttention(std::int64_t runId) const;
    std::vector<int> attentionSteps(std::int64_t runId) const;
    std::optional<AttentionSnapshot> attentionNearest(std::int64_t runId, int step, int probe) const;
    std::vector<AttentionSnapshot> attentionProbes(std::int64_t runId) const;
    std::vector<std::string> attentionJson(std::int64_t runId) const; // every snapshot as stored, by step
    std::vector<Characteristic> characteristics(std::int64_t runId) const;
    std::vector<CheckpointRef> checkpoints(std::int64_t runId) const;
    std::vector<StoredAnalysis> analyses(std::int64_t runId) const; // by kind and key
    RunBundle bundle(std::int64_t runId) const; // throws std::invalid_argument for an unknown run

    // Comparing runs: one metric of many runs in one query, (step, value) by step (then value) per run,
    // in the order of `runIds` (empty for a run without it or an unknown id).
    std::vector<std::vector<std::pair<int, double>>> curves(const std::vector<std::int64_t>& runIds,
                                                            const std::string& split, const std::string& name) const;

private:
    const SqliteConnection& connection_;
};

} // namespace attnlab
