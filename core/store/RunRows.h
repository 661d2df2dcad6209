#pragma once
#include "core/results/MetricPoint.h"
#include "core/results/RunRecord.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

class SqliteConnection;

// The rows that belong to a run (metrics, attention snapshots, characteristics, checkpoints), inserted the
// same way whether training appends them or RunStore::importRun copies them from another store. Each
// prepares its statement once for the whole batch; the caller holds the transaction.
class RunRows {
public:
    static void insertMetrics(const SqliteConnection& c, std::int64_t runId, const std::vector<MetricPoint>& points);
    static void insertAttention(const SqliteConnection& c, std::int64_t runId,
                                const std::vector<std::pair<int, std::string>>& stepAndJson);
    static void insertCharacteristics(const SqliteConnection& c, std::int64_t runId, const std::vector<Characteristic>& values);
    static void insertCheckpoints(const SqliteConnection& c, std::int64_t runId, const std::vector<CheckpointRef>& refs);
    // Replacing those of the same kind and key; the analyses table is made by the first one (RunStoreSchema).
    static void insertAnalyses(const SqliteConnection& c, std::int64_t runId, const std::string& runUuid,
                               const std::vector<StoredAnalysis>& analyses);
};

} // namespace attnlab
