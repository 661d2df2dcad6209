#include "core/store/RunStore.h"
#include "core/store/StoreConnections.h"
#include "core/platform/JsonInteger.h"

#include "core/platform/AllocatorTuning.h"
#include "core/platform/AtomicFile.h"
#include "core/platform/BuildInfo.h"
#include "core/platform/HostInfo.h"
#include "core/store/RunAggregates.h"
#include "core/store/RunColumns.h"
#include "core/store/RunDeleter.h"
#include "core/store/RunQueries.h"
#include "core/store/RunRows.h"
#include "core/store/RunStamp.h"
#include "core/store/RunStoreSchema.h"
#include "core/store/SqliteConnection.h"
#include "core/store/SqliteStatement.h"
#include "core/store/StoreLockedError.h"
#include "core/store/StoredJson.h"
#include "core/platform/ProcessInfo.h"
#include "core/platform/UserFolders.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace attnlab {
namespace {

using nlohmann::json;

} // namespace

// The store's connections (StoreConnections) and the lock that serialises them: one connection, possibly
// two threads (training and StoreObserver's writer).
struct RunStore::Impl : StoreConnections {
    using StoreConnections::StoreConnections;
    std::recursive_mutex mutex;
};

RunStore::RunStore(const std::string& path, int busyTimeoutMs)
    : impl_(std::make_unique<Impl>(path, busyTimeoutMs))
{
    // Reading the schema first turns "file is not a database" into a clear error here; if anything
    // throws, impl_ closes the connection.
    impl_->configure();
    RunStoreSchema(impl_->connection).migrate();
    markInterruptedRuns();
}

RunStore::~RunStore() = default;

const std::string& RunStore::path() const { return impl_->connection.path(); }

std::string RunStore::checkpointFolderOf(const std::string& storePath)
{
    return (std::filesystem::absolute(storePath).parent_path() / "checkpoints").string();
}

std::string RunStore::defaultPath()
{
    if (const char* db = std::getenv("ATTNLAB_DB"); db && *db)
        return db;
    std::filesystem::path base = UserFolders::data();
    if (base.empty())
        base = std::filesystem::current_path();
    return (base / "attnlab" / "runs.sqlite").string();
}

std::string RunStore::groupKeyOf(const std::string& configJson)
{
    json config = StoredJson::parseOr(configJson, json());
    if (!config.is_object())
        return configJson;
    config.erase("seed");
    config.erase("checkpoint_dir"); // where weights are saved does not change the experiment
    return config.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); // nlohmann's objects keep keys sorted: one text per configuration
}

std::int64_t RunStore::beginRun(const RunInfo& info)
{
    std::lock_guard lock(impl_->mutex);
    const auto& c = info.config;
    const std::string configJson = c.toJson();
    const std::string host = HostInfo::hostName();
    json environment = {
        {"app_version", BuildInfo::appVersion()},       {"git_hash", BuildInfo::gitHash()},
        {"torch_version", info.torchVersion},           {"device", info.device},
        {"host", host},                                 {"os", HostInfo::operatingSystem()},
        {"cpu_model", HostInfo::cpuModel()},            {"cpu_cores", std::thread::hardware_concurrency()},
        {"dataset", c.dataset},                         {"allocator", AllocatorTuning::state()},
    };
    for (const auto& [key, value] : info.environment)
        environment[key] = value;
    SqliteStatement s(impl_->connection,
                      "INSERT INTO runs (name, status, started_at, config_json, seed, dataset, model, position,"
                      " app_version, git_hash, torch_version, device, host, pid, params, uuid, group_key,"
                      " environment_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    const std::string name = c.model.model + (c.model.position != "none" ? "+" + c.model.position : "") + " on " + c.dataset;
    s.bind(1, name).bind(2, toString(RunStatus::Running)).bind(3, RunStamp::nowIso()).bind(4, configJson)
        .bind(5, static_cast<std::int64_t>(c.seed)).bind(6, c.dataset).bind(7, c.model.model).bind(8, c.model.position)
        .bind(9, BuildInfo::appVersion()).bind(10, BuildInfo::gitHash()).bind(11, info.torchVersion)
        .bind(12, info.device).bind(13, host).bind(14, static_cast<std::int64_t>(ProcessInfo::currentId()))
        .bind(15, info.parameters).bind(16, RunStamp::randomUuid()).bind(17, groupKeyOf(configJson)).bind(18, environment.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    s.step();
    return impl_->connection.lastInsertId();
}

void RunStore::appendMetrics(std::int64_t runId, const std::vector<MetricPoint>& points)
{
    if (points.empty())
        return;
    std::lock_guard lock(impl_->mutex);
    impl_->connection.transaction([&] { RunRows::insertMetrics(impl_->connection, runId, points); });
}

void RunStore::appendAttention(std::int64_t runId, const AttentionSnapshot& snapshot)
{
    std::lock_guard lock(impl_->mutex);
    RunRows::insertAttention(impl_->connection, runId, {{snapshot.step, snapshot.toJson()}});
}

void RunStore::finishRun(std::int64_t runId, const RunSummary& summary)
{
    std::lock_guard lock(impl_->mutex);
    try {
        writeFinish(runId, summary);
    } catch (const StoreLockedError&) {
        throw;
    } catch (const std::runtime_error&) {
        // Most often the disk is full or a size limit hit, and the write-ahead log is what cannot grow:
        // moving it into the database and emptying it may make room for this one row, the run's end.
        sqlite3_wal_checkpoint_v2(impl_->connection.handle(), nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
        writeFinish(runId, summary);
    }
}

void RunStore::writeFinish(std::int64_t runId, const RunSummary& summary)
{
    SqliteStatement s(impl_->connection,
                      "UPDATE runs SET status=?, finished_at=?, steps=MAX(?, (SELECT COALESCE(MAX(step), 0) FROM metrics WHERE"
                      " run_id=runs.id)), seconds=?, best_dev=?, best_step=?,"
                      " test_accuracy=?, params=?, device=COALESCE(NULLIF(?, ''), device), message=?, summary_json=?,"
                      " regression=?, test_macro_f1=?, test_rmse=?, test_mae=?, test_mape=?, best_dev_rmse=?,"
                      " stopped_early=? WHERE id=?");
    s.bind(1, toString(summary.status)).bind(2, RunStamp::nowIso()).bind(3, summary.steps).bind(4, summary.seconds)
        .bind(5, summary.bestDevAccuracy).bind(6, summary.bestStep).bind(7, summary.testAccuracy)
        .bind(8, summary.parameters).bind(9, summary.device).bind(10, summary.message).bind(11, summary.toJson())
        .bind(12, summary.regression ? 1 : 0).bind(13, summary.testMacroF1).bind(14, summary.testRmse)
        .bind(15, summary.testMae).bind(16, summary.testMape).bind(17, summary.bestDevRmse)
        .bind(18, summary.stoppedEarly ? 1 : 0).bind(19, runId);
    s.step();
    if (summary.testForecast) {
        SqliteStatement uuid(impl_->connection, "SELECT uuid FROM runs WHERE id=?");
        uuid.bind(1, runId);
        if (uuid.step())
            RunRows::insertAnalyses(impl_->connection, runId, uuid.text(0),
                                    {{"forecast", "test", summary.testForecast->toJson(), std::string()}});
    }
    if (summary.notes.empty())
        return;
    std::string notes;
    for (const auto& note : summary.notes)
        notes += (notes.empty() ? "" : "\n") + note;
    // After whatever the user wrote while it ran, on a line of their own.
    SqliteStatement append(impl_->connection, "UPDATE runs SET notes = CASE WHEN notes = '' THEN ? ELSE notes || char(10) || ? END WHERE id=?");
    append.bind(1, notes).bind(2, notes).bind(3, runId);
    append.step();
}

void RunStore::setEnvironment(std::int64_t runId, const std::string& text)
{
    json given;
    try {
        given = json::parse(text);
    } catch (const json::exception& e) {
        throw std::invalid_argument("run store " + path() + ": environment of run " + std::to_string(runId) +
                                    " is not JSON: " + e.what());
    }
    if (!given.is_object())
        throw std::invalid_argument("run store " + path() + ": environment of run " + std::to_string(runId) +
                                    " must be a JSON object");
    std::lock_guard lock(impl_->mutex);
    const SqliteConnection& c = impl_->connection;
    c.transaction([&] {
        SqliteStatement read(c, "SELECT environment_json FROM runs WHERE id=?");
        read.bind(1, runId);
        if (!read.step())
            throw std::invalid_argument("run store " + path() + ": no run " + std::to_string(runId));
        json environment = StoredJson::parseOr(read.text(0), json::object());
        if (!environment.is_object())
            environment = json::object();
        environment.update(given); // the caller's keys replace ours
        SqliteStatement write(c, "UPDATE runs SET environment_json=? WHERE id=?");
        write.bind(1, environment.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).bind(2, runId);
        write.step();
    });
}

void RunStore::setTags(std::int64_t runId, const std::vector<std::string>& tags)
{
    std::lock_guard lock(impl_->mutex);
    SqliteStatement s(impl_->connection, "UPDATE runs SET tags=? WHERE id=?");
    s.bind(1, json(tags).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).bind(2, runId);
    s.step();
}

void RunStore::setNotes(std::int64_t runId, const std::string& notes)
{
    std::lock_guard lock(impl_->mutex);
    SqliteStatement s(impl_->connection, "UPDATE runs SET notes=? WHERE id=?");
    s.bind(1, notes).bind(2, runId);
    s.step();
}

void RunStore::setTags(const std::vector<std::int64_t>& runIds, const std::vector<std::string>& tags)
{
    std::lock_guard lock(impl_->mutex);
    const SqliteConnection& c = impl_->connection;
    c.transaction([&] {
        SqliteStatement s(c, "UPDATE runs SET tags=? WHERE id=?");
        const std::string text = json(tags).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        for (const auto id : runIds) {
            s.bind(1, text).bind(2, id);
            s.run();
        }
    });
}

void RunStore::setNotes(const std::vector<std::int64_t>& runIds, const std::string& notes)
{
    std::lock_guard lock(impl_->mutex);
    const SqliteConnection& c = impl_->connection;
    c.transaction([&] {
        SqliteStatement s(c, "UPDATE runs SET notes=? WHERE id=?");
        for (const auto id : runIds) {
            s.bind(1, notes).bind(2, id);
            s.run();
        }
    });
}

void RunStore::addTags(const std::vector<std::int64_t>& runIds, const std::vector<std::string>& tags)
{
    std::lock_guard lock(impl_->mutex);
    const SqliteConnection& c = impl_->connection;
    c.transaction([&] {
        SqliteStatement read(c, "SELECT tags FROM runs WHERE id=?");
        SqliteStatement write(c, "UPDATE runs SET tags=? WHERE id=?");
        for (const auto id : runIds) {
            read.bind(1, id);
            if (!read.step()) {
                read.reset();
                continue;
            }
            json have = StoredJson::parseOr(read.text(0), json::array());
            read.reset();
            if (!have.is_array())
                have = json::array();
            for (const auto& tag : tags)
                if (std::find(have.begin(), have.end(), json(tag)) == have.end())
                    have.push_back(tag);
            write.bind(1, have.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).bind(2, id);
            write.run();
        }
    });
}

void RunStore::renameRun(std::int64_t runId, const std::string& name)
{
    if (name.empty())
        throw std::invalid_argument("run store " + path() + ": a run's name cannot be empty");
    std::lock_guard lock(impl_->mutex);
    SqliteStatement s(impl_->connection, "UPDATE runs SET name=? WHERE id=?");
    s.bind(1, name).bind(2, runId);
    s.step();
    if (impl_->connection.changes() == 0)
        throw std::invalid_argument("run store " + path() + ": no run " + std::to_string(runId));
}

RunDeletion RunStore::deleteRuns(const std::vector<std::int64_t>& runIds)
{
    std::lock_guard lock(impl_->mutex);
    return RunDeleter(impl_->connection).remove(runIds);
}

void RunStore::appendCharacteristics(std::int64_t runId, const std::vector<Characteristic>& values)
{
    if (values.empty())
        return;
    std::lock_guard lock(impl_->mutex);
    impl_->connection.transaction([&] { RunRows::insertCharacteristics(impl_->connection, runId, values); });
}

void RunStore::putAnalysis(std::int64_t runId, const std::string& kind, const std::string& key, const std::string& json)
{
    std::lock_guard lock(impl_->mutex);
    const SqliteConnection& c = impl_->connection;
    c.transaction([&] {
        SqliteStatement uuid(c, "SELECT uuid FROM runs WHERE id=?");
        uuid.bind(1, runId);
        if (!uuid.step())
            throw std::invalid_argument("run store " + path() + ": no run " + std::to_string(runId));
        RunRows::insertAnalyses(c, runId, uuid.text(0), {{kind, key, json, std::string()}});
    });
}

std::optional<StoredAnalysis> RunStore::analysis(std::int64_t runId, const std::string& kind, const std::string& key) const
{
    for (auto& a : analyses(runId))
        if (a.kind == kind && a.key == key)
            return std::move(a);
    return std::nullopt;
}

std::vector<StoredAnalysis> RunStore::analyses(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return RunQueries(impl_->connection).analyses(runId);
}

void RunStore::addCheckpoint(std::int64_t runId, int step, const std::string& file, const std::string& sha256)
{
    std::lock_guard lock(impl_->mutex);
    RunRows::insertCheckpoints(impl_->connection, runId, {{step, file, sha256}});
}

std::vector<RunRecord> RunStore::listRuns() const
{
    return listRuns(RunFilter{});
}

std::vector<RunRecord> RunStore::listRuns(const RunFilter& filter) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.listRuns(filter);
}

std::optional<RunRecord> RunStore::run(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.run(runId);
}

std::vector<MetricPoint> RunStore::metrics(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.metrics(runId);
}

std::vector<std::pair<int, double>> RunStore::metricSeries(std::int64_t runId, const std::string& split,
                                                           const std::string& name) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.metricSeries(runId, split, name);
}

std::vector<std::vector<std::pair<int, double>>> RunStore::curves(const std::vector<std::int64_t>& runIds,
                                                                const std::string& split,
                                                                const std::string& name) const
{
    std::lock_guard lock(impl_->mutex);
    // Many runs' curves (the compare view's 100 runs of 10,000 steps: 1 M rows) are read in two halves at
    // once, the second on its own connection and thread: WAL lets two connections read together, and
    // building the vectors costs about as much as SQLite's walk of the index.
    constexpr std::size_t kSplitFrom = 16;
    RunQueries* reader = runIds.size() >= kSplitFrom ? impl_->reader() : nullptr;
    if (!reader)
        return impl_->queries.curves(runIds, split, name);
    const auto middle = runIds.begin() + static_cast<std::ptrdiff_t>(runIds.size() / 2);
    const std::vector<std::int64_t> first(runIds.begin(), middle), second(middle, runIds.end());
    auto later = std::async(std::launch::async, [&] { return reader->curves(second, split, name); });
    auto curves = impl_->queries.curves(first, split, name);
    auto rest = later.get();
    curves.insert(curves.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
    return curves;
}

std::optional<AttentionSnapshot> RunStore::latestAttention(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.latestAttention(runId);
}

std::vector<int> RunStore::attentionSteps(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.attentionSteps(runId);
}

std::optional<AttentionSnapshot> RunStore::attentionNearest(std::int64_t runId, int step, int probe) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.attentionNearest(runId, step, probe);
}

std::vector<AttentionSnapshot> RunStore::attentionProbes(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.attentionProbes(runId);
}

std::vector<Characteristic> RunStore::characteristics(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.characteristics(runId);
}

std::vector<CheckpointRef> RunStore::checkpoints(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.checkpoints(runId);
}

std::vector<RunAggregate> RunStore::aggregates() const
{
    std::lock_guard lock(impl_->mutex);
    return RunAggregates(impl_->connection).perGroup();
}

std::vector<RunAggregate> RunStore::aggregatesOf(const std::vector<RunRecord>& runs)
{
    return RunAggregates::of(runs);
}

bool RunStore::restoreIfDeleted()
{
    std::lock_guard lock(impl_->mutex);
    SqliteConnection& c = impl_->connection;
    const std::string& file = c.path();
    if (!impl_->onAFile() || !c.hasMoved())
        return false;
    std::error_code error;
    if (std::filesystem::exists(file, error))
        throw std::runtime_error("run store " + file + ": the database file was replaced by another file while runs "
                                 "were being written to it; the runs of the old file are only in this process now, "
                                 "so move the new file away to have them written back");
    // The open connection still reads the deleted file: a consistent copy of it goes back under its name,
    // whole at once. VACUUM INTO the name itself let a window watching the folder open the half-written
    // file, find no runs in it and stay there (a CI failure of test_run_history); beside it and renamed, a
    // reader sees no file or the whole copy.
    AtomicFile::writeThrough(file, [&c](const std::string& temporary) {
        SqliteStatement copy(c, "VACUUM INTO ?"); // into the empty temporary file, which SQLite accepts
        copy.bind(1, temporary);
        copy.step();
    }); // finalised: the connection closes only without statements
    impl_->reopen();
    return true;
}

RunStore::FileChange RunStore::followFile(bool writeBack)
{
    std::lock_guard lock(impl_->mutex);
    const std::string& file = impl_->connection.path();
    if (!impl_->onAFile() || !impl_->connection.hasMoved())
        return FileChange::None;
    std::error_code error;
    if (!std::filesystem::exists(file, error)) {
        if (!writeBack)
            return FileChange::Missing;
        restoreIfDeleted();
        return FileChange::WrittenBack;
    }
    // Check the new file before letting go of the old one: a file that is not a run database (or one of a
    // newer schema) leaves this store reading what it had.
    { RunStore probe(file, impl_->busyTimeoutMs); }
    impl_->reopen();
    return FileChange::Reopened;
}

RunListState RunStore::listState() const
{
    std::lock_guard lock(impl_->mutex);
    RunListState state;
    SqliteStatement totals(impl_->connection, "SELECT count(*), coalesce(max(id), 0) FROM runs");
    if (totals.step()) {
        state.runs = totals.integer(0);
        state.newestId = totals.integer(1);
    }
    SqliteStatement running(impl_->connection, "SELECT count(*), coalesce(sum(id), 0) FROM runs WHERE status='running'");
    if (running.step()) {
        state.running = running.integer(0);
        state.runningIdSum = running.integer(1);
    }
    return state;
}

int RunStore::markInterruptedRuns()
{
    std::lock_guard lock(impl_->mutex);
    // A run still "running" whose process on this host is gone was killed or crashed.
    SqliteStatement select(impl_->connection, "SELECT id, host, pid FROM runs WHERE status='running'");
    std::vector<std::int64_t> dead;
    const std::string host = HostInfo::hostName();
    while (select.step()) {
        const auto pid = static_cast<int>(select.integer(2));
        const bool sameHost = select.text(1) == host;
        const bool alive = sameHost && ProcessInfo::isAlive(pid);
        if (sameHost && !alive)
            dead.push_back(select.integer(0));
    }
    for (auto id : dead) {
        SqliteStatement update(impl_->connection,
                               "UPDATE runs SET status='interrupted', message='the training process ended without"
                               " finishing the run (killed or crashed)', steps=(SELECT COALESCE(MAX(step),0) FROM"
                               " metrics WHERE run_id=?) WHERE id=? AND status='running'");
        update.bind(1, id).bind(2, id);
        update.step();
    }
    return static_cast<int>(dead.size());
}

RunBundle RunStore::bundle(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    return impl_->queries.bundle(runId);
}

std::int64_t RunStore::importRun(const RunBundle& b)
{
    const RunRecord& r = b.record;
    if (r.uuid.empty())
        throw std::invalid_argument("run store " + path() + ": an imported run needs a uuid");
    std::lock_guard lock(impl_->mutex);
    const SqliteConnection& c = impl_->connection;
    return c.transaction([&]() -> std::int64_t {
        SqliteStatement exists(c, "SELECT 1 FROM runs WHERE uuid=?");
        exists.bind(1, r.uuid);
        if (exists.step())
            return 0;
        // No pid: the run's process belongs to the store it came from.
        SqliteStatement s(c,
                          "INSERT INTO runs (name, status, started_at, finished_at, config_json, seed, dataset, model,"
                          " position, app_version, git_hash, torch_version, device, host, params, steps, seconds,"
                          " best_dev, best_step, test_accuracy, message, uuid, group_key, tags, notes,"
                          " environment_json, summary_json, regression, test_macro_f1, test_rmse, test_mae, test_mape,"
                          " best_dev_rmse, stopped_early)"
                          " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        // The summary's columns from the summary itself: an exported document carries only the JSON.
        RunRecord fields = r;
        RunColumns::readSummaryFields(r.summaryJson, fields);
        s.bind(1, r.name).bind(2, toString(r.status)).bind(3, r.startedAt).bindTextOrNull(4, r.finishedAt).bind(5, r.configJson)
            .bind(6, static_cast<std::int64_t>(r.seed)).bind(7, r.dataset).bind(8, r.model).bind(9, r.position)
            .bind(10, r.appVersion).bind(11, r.gitHash).bind(12, r.torchVersion).bind(13, r.device).bind(14, r.host)
            .bind(15, r.parameters).bind(16, r.steps).bind(17, r.seconds).bind(18, r.bestDevAccuracy)
            .bind(19, r.bestStep).bind(20, r.testAccuracy).bind(21, r.message).bind(22, r.uuid)
            .bind(23, groupKeyOf(r.configJson)).bind(24, json(r.tags).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).bind(25, r.notes)
            .bind(26, r.environmentJson.empty() ? std::string("{}") : r.environmentJson).bind(27, r.summaryJson)
            .bind(28, fields.regression ? 1 : 0).bind(29, fields.testMacroF1).bind(30, fields.testRmse)
            .bind(31, fields.testMae).bind(32, fields.testMape).bind(33, fields.bestDevRmse)
            .bind(34, fields.stoppedEarly ? 1 : 0);
        s.step();
        const std::int64_t id = c.lastInsertId();

        RunRows::insertMetrics(c, id, b.metrics);
        // A snapshot's step is inside its JSON; one that cannot be read is kept, at step 0.
        std::vector<std::pair<int, std::string>> attention;
        for (const auto& text : b.attentionJson) {
            const json snapshot = StoredJson::parseOr(text, json::object());
            attention.emplace_back(JsonInteger::valueOr(snapshot, "step", 0), text);
        }
        RunRows::insertAttention(c, id, attention);
        RunRows::insertCharacteristics(c, id, b.characteristics);
        RunRows::insertCheckpoints(c, id, b.checkpoints);
        RunRows::insertAnalyses(c, id, r.uuid, b.analyses);
        return id;
    });
}

} // namespace attnlab
