#include "core/store/RunQueries.h"

#include "core/store/RunColumns.h"
#include "core/store/SqliteConnection.h"
#include "core/store/RunStoreSchema.h"
#include "core/store/SqliteStatement.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace attnlab {
namespace {

// Every row of a query about one run (its id bound to the one parameter), each made by readRow.
template <typename ReadRow>
auto rowsOfRun(const SqliteConnection& connection, const std::string& sql, std::int64_t runId, ReadRow readRow)
{
    SqliteStatement s(connection, sql);
    s.bind(1, runId);
    std::vector<decltype(readRow(s))> rows;
    while (s.step())
        rows.push_back(readRow(s));
    return rows;
}

} // namespace

RunQueries::RunQueries(const SqliteConnection& connection) : connection_(connection) {}

std::vector<RunRecord> RunQueries::listRuns(const RunFilter& filter) const
{
    std::string sql = RunColumns::selectFromRuns() + " WHERE 1";
    std::vector<std::string> values; // bound in order
    auto equal = [&](const char* column, const std::string& value) {
        if (!value.empty()) {
            sql += std::string(" AND ") + column + "=?";
            values.push_back(value);
        }
    };
    equal("dataset", filter.dataset);
    equal("model", filter.model);
    equal("position", filter.position);
    equal("status", filter.status);
    if (!filter.tag.empty()) {
        sql += " AND EXISTS (SELECT 1 FROM json_each(runs.tags) WHERE json_each.value=?)";
        values.push_back(filter.tag);
    }
    if (!filter.text.empty()) {
        sql += " AND (instr(lower(name), lower(?)) > 0 OR instr(lower(notes), lower(?)) > 0)";
        values.push_back(filter.text);
        values.push_back(filter.text);
    }
    const char* direction = filter.descending ? " DESC" : " ASC";
    const char* column = "started_at";
    switch (filter.sortBy) {
    case RunFilter::SortBy::Started: column = "started_at"; break;
    case RunFilter::SortBy::TestAccuracy: column = "test_accuracy"; break;
    case RunFilter::SortBy::BestDev: column = "best_dev"; break;
    case RunFilter::SortBy::Name: column = "name COLLATE NOCASE"; break;
    }
    // Ties (same second, same accuracy) fall back to the order the runs were added.
    sql += std::string(" ORDER BY ") + column + direction + ", id" + direction;
    if (filter.limit > 0)
        sql += " LIMIT " + std::to_string(filter.limit);

    SqliteStatement s(connection_, sql);
    for (std::size_t i = 0; i < values.size(); ++i)
        s.bind(static_cast<int>(i + 1), values[i]);
    std::vector<RunRecord> runs;
    while (s.step())
        runs.push_back(RunColumns::read(s));
    return runs;
}

std::optional<RunRecord> RunQueries::run(std::int64_t runId) const
{
    SqliteStatement s(connection_, RunColumns::selectFromRuns() + " WHERE id=?");
    s.bind(1, runId);
    if (!s.step())
        return std::nullopt;
    return RunColumns::read(s);
}

std::vector<MetricPoint> RunQueries::metrics(std::int64_t runId) const
{
    return rowsOfRun(connection_, "SELECT step, split, name, value FROM metrics WHERE run_id=? ORDER BY step, rowid",
                     runId, [](const SqliteStatement& s) {
                         return MetricPoint{static_cast<int>(s.integer(0)), s.text(1), s.text(2), s.real(3)};
                     });
}

std::vector<std::pair<int, double>> RunQueries::metricSeries(std::int64_t runId, const std::string& split,
                                                             const std::string& name) const
{
    SqliteStatement s(connection_,
                      "SELECT step, value FROM metrics WHERE run_id=? AND split=? AND name=? ORDER BY step, rowid");
    s.bind(1, runId).bind(2, split).bind(3, name);
    std::vector<std::pair<int, double>> series;
    while (s.step())
        series.emplace_back(static_cast<int>(s.integer(0)), s.real(1));
    return series;
}

std::optional<AttentionSnapshot> RunQueries::latestAttention(std::int64_t runId) const
{
    SqliteStatement s(connection_,
                      // The last step's first row: probe 0 (the probe sentence), written first at each step.
                      "SELECT snapshot_json FROM attention WHERE run_id=? ORDER BY step DESC, rowid ASC LIMIT 1");
    s.bind(1, runId);
    if (!s.step())
        return std::nullopt;
    return AttentionSnapshot::fromJson(s.text(0));
}

std::vector<int> RunQueries::attentionSteps(std::int64_t runId) const
{
    SqliteStatement s(connection_, "SELECT DISTINCT step FROM attention WHERE run_id=? ORDER BY step");
    s.bind(1, runId);
    std::vector<int> steps;
    while (s.step())
        steps.push_back(static_cast<int>(s.integer(0)));
    return steps;
}

std::optional<AttentionSnapshot> RunQueries::attentionNearest(std::int64_t runId, int step, int probe) const
{
    // Along the attention_by_run index: the nearest step (the earlier one on a tie), then that step's
    // rows in the order written, which is the probes' order.
    SqliteStatement s(connection_, "SELECT snapshot_json FROM attention WHERE run_id=?1 AND step="
                                   " (SELECT step FROM attention WHERE run_id=?1 ORDER BY abs(step - ?2), step LIMIT 1)"
                                   " ORDER BY rowid LIMIT 1 OFFSET ?3");
    s.bind(1, runId).bind(2, static_cast<std::int64_t>(step)).bind(3, static_cast<std::int64_t>(std::max(probe, 0)));
    if (!s.step())
        return std::nullopt;
    return AttentionSnapshot::fromJson(s.text(0));
}

std::vector<AttentionSnapshot> RunQueries::attentionProbes(std::int64_t runId) const
{
    SqliteStatement s(connection_, "SELECT snapshot_json FROM attention WHERE run_id=?1 AND step="
                                   " (SELECT MIN(step) FROM attention WHERE run_id=?1) ORDER BY rowid");
    s.bind(1, runId);
    std::vector<AttentionSnapshot> probes;
    while (s.step())
        probes.push_back(AttentionSnapshot::fromJson(s.text(0)));
    return probes;
}

std::vector<std::string> RunQueries::attentionJson(std::int64_t runId) const
{
    return rowsOfRun(connection_, "SELECT snapshot_json FROM attention WHERE run_id=? ORDER BY step, rowid", runId,
                     [](const SqliteStatement& s) { return s.text(0); });
}

std::vector<Characteristic> RunQueries::characteristics(std::int64_t runId) const
{
    return rowsOfRun(connection_, "SELECT name, value, unit FROM characteristics WHERE run_id=? ORDER BY rowid", runId,
                     [](const SqliteStatement& s) { return Characteristic{s.text(0), s.real(1), s.text(2)}; });
}

std::vector<CheckpointRef> RunQueries::checkpoints(std::int64_t runId) const
{
    return rowsOfRun(connection_, "SELECT step, path, sha256 FROM checkpoints WHERE run_id=? ORDER BY step, rowid",
                     runId, [](const SqliteStatement& s) {
                         return CheckpointRef{static_cast<int>(s.integer(0)), s.text(1), s.text(2)};
                     });
}

RunBundle RunQueries::bundle(std::int64_t runId) const
{
    auto record = run(runId);
    if (!record)
        throw std::invalid_argument("run store " + connection_.path() + ": no run " + std::to_string(runId));
    RunBundle b;
    b.record = std::move(*record);
    b.metrics = metrics(runId);
    b.attentionJson = attentionJson(runId);
    b.characteristics = characteristics(runId);
    b.checkpoints = checkpoints(runId);
    b.analyses = analyses(runId);
    return b;
}

std::vector<StoredAnalysis> RunQueries::analyses(std::int64_t runId) const
{
    if (!RunStoreSchema::hasAnalysesTable(connection_)) // a store that never kept an analysis
        return {};
    // Joined on the uuid as well: a run id reused after a delete does not inherit another run's analyses.
    SqliteStatement s(connection_, "SELECT a.kind, a.key, a.json, a.created_at FROM analyses a JOIN runs r"
                                   " ON r.id = a.run_id AND r.uuid = a.run_uuid WHERE a.run_id=? ORDER BY a.kind, a.key");
    s.bind(1, runId);
    std::vector<StoredAnalysis> out;
    while (s.step())
        out.push_back({s.text(0), s.text(1), s.text(2), s.text(3)});
    return out;
}

std::vector<std::vector<std::pair<int, double>>> RunQueries::curves(const std::vector<std::int64_t>& runIds,
                                                                  const std::string& split,
                                                                  const std::string& name) const
{
    std::vector<std::vector<std::pair<int, double>>> curves(runIds.size());
    if (runIds.empty())
        return curves;
    std::unordered_map<std::int64_t, std::vector<std::size_t>> slots; // an id given twice fills both
    std::string ids = "[";
    for (std::size_t i = 0; i < runIds.size(); ++i) {
        slots[runIds[i]].push_back(i);
        ids += (i ? "," : "") + std::to_string(runIds[i]);
    }
    ids += "]";
    // The ids as one JSON array parameter: one statement for any number of runs, read from the covering
    // index metrics_curves (run_id, split, name, step, value) alone. Ordering by rowid too would send
    // SQLite to the table for every row (3x slower), so two values logged at one step come by value.
    SqliteStatement s(connection_, "SELECT run_id, step, value FROM metrics"
                                   " WHERE run_id IN (SELECT value FROM json_each(?)) AND split=? AND name=?"
                                   " ORDER BY run_id, step");
    s.bind(1, ids).bind(2, split).bind(3, name);
    std::int64_t current = 0;
    std::vector<std::pair<int, double>> series;
    auto flush = [&] {
        if (series.empty())
            return;
        const auto& to = slots[current];
        for (std::size_t k = 0; k + 1 < to.size(); ++k)
            curves[to[k]] = series;
        curves[to.back()] = std::move(series);
        series.clear();
    };
    std::size_t lastSize = 0; // runs compared tend to be alike: size the next one like the last
    while (s.step()) {
        const std::int64_t run = s.integer(0);
        if (run != current) {
            lastSize = std::max(lastSize, series.size());
            flush();
            series.reserve(lastSize);
            current = run;
        }
        series.emplace_back(static_cast<int>(s.integer(1)), s.real(2));
    }
    flush();
    return curves;
}

} // namespace attnlab
