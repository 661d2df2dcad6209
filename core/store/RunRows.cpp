#include "core/store/RunRows.h"

#include "core/store/SqliteConnection.h"
#include "core/store/RunStamp.h"
#include "core/store/RunStoreSchema.h"
#include "core/store/SqliteStatement.h"

namespace attnlab {

void RunRows::insertMetrics(const SqliteConnection& c, std::int64_t runId, const std::vector<MetricPoint>& points)
{
    SqliteStatement s(c, "INSERT INTO metrics (run_id, step, split, name, value) VALUES (?,?,?,?,?)");
    for (const auto& p : points) {
        s.bind(1, runId).bind(2, p.step).bind(3, p.split).bind(4, p.name).bind(5, p.value);
        s.run();
    }
}

void RunRows::insertAttention(const SqliteConnection& c, std::int64_t runId,
                              const std::vector<std::pair<int, std::string>>& stepAndJson)
{
    SqliteStatement s(c, "INSERT INTO attention (run_id, step, snapshot_json) VALUES (?,?,?)");
    for (const auto& [step, text] : stepAndJson) {
        s.bind(1, runId).bind(2, step).bind(3, text);
        s.run();
    }
}

void RunRows::insertCharacteristics(const SqliteConnection& c, std::int64_t runId, const std::vector<Characteristic>& values)
{
    SqliteStatement s(c, "INSERT INTO characteristics (run_id, name, value, unit) VALUES (?,?,?,?)");
    for (const auto& v : values) {
        s.bind(1, runId).bind(2, v.name).bind(3, v.value).bind(4, v.unit);
        s.run();
    }
}

void RunRows::insertCheckpoints(const SqliteConnection& c, std::int64_t runId, const std::vector<CheckpointRef>& refs)
{
    SqliteStatement s(c, "INSERT INTO checkpoints (run_id, step, path, sha256) VALUES (?,?,?,?)");
    for (const auto& ref : refs) {
        s.bind(1, runId).bind(2, ref.step).bind(3, ref.path).bind(4, ref.sha256);
        s.run();
    }
}

void RunRows::insertAnalyses(const SqliteConnection& c, std::int64_t runId, const std::string& runUuid,
                             const std::vector<StoredAnalysis>& analyses)
{
    if (analyses.empty())
        return;
    RunStoreSchema::addAnalysesTable(c);
    SqliteStatement s(c, "INSERT OR REPLACE INTO analyses (run_id, run_uuid, kind, key, json, created_at) VALUES (?,?,?,?,?,?)");
    for (const auto& a : analyses) {
        s.bind(1, runId).bind(2, runUuid).bind(3, a.kind).bind(4, a.key).bind(5, a.json)
            .bind(6, a.createdAt.empty() ? RunStamp::nowIso() : a.createdAt);
        s.run();
    }
}

} // namespace attnlab
