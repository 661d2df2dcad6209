#pragma once
#include "core/AttentionSnapshot.h"
#include "core/MetricPoint.h"
#include "core/RunInfo.h"
#include "core/RunRecord.h"
#include "core/RunSummary.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// The SQLite run store: the single source of truth for history. WAL mode, batched inserts, schema
// version in PRAGMA user_version. Opening it marks runs whose process died (status still "running",
// owner pid gone) as interrupted. Errors throw std::runtime_error naming the file.
class RunStore {
public:
    static constexpr int kSchemaVersion = 1;

    explicit RunStore(const std::string& path);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    const std::string& path() const;
    static std::string defaultPath(); // $ATTNLAB_DB, else $XDG_DATA_HOME|~/.local/share/attnlab/runs.sqlite

    std::int64_t beginRun(const RunInfo& info);
    void appendMetrics(std::int64_t runId, const std::vector<MetricPoint>& points); // one transaction
    void appendAttention(std::int64_t runId, const AttentionSnapshot& snapshot);
    void finishRun(std::int64_t runId, const RunSummary& summary);

    std::vector<RunRecord> listRuns() const;          // newest first
    std::optional<RunRecord> run(std::int64_t runId) const;
    std::vector<MetricPoint> metrics(std::int64_t runId) const; // ordered by step
    std::optional<AttentionSnapshot> latestAttention(std::int64_t runId) const;
    int markInterruptedRuns();                        // returns how many were marked

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
