#include "core/store/RunStore.h"

#include "core/data/install/Sha256.h"
#include "core/platform/BuildInfo.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <sys/utsname.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <signal.h>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace attnlab {
namespace {

using nlohmann::json;

std::string nowIso()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

std::string hostName()
{
    char buffer[256] = {0};
    gethostname(buffer, sizeof buffer - 1);
    return buffer;
}

std::string cpuModel()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0)
            if (auto colon = line.find(':'); colon != std::string::npos)
                return line.substr(line.find_first_not_of(" \t", colon + 1));
    return "";
}

std::string operatingSystem()
{
    utsname u{};
    if (uname(&u) != 0)
        return "";
    return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

std::string randomUuid()
{
    std::random_device device;
    static const char* hex = "0123456789abcdef";
    std::string id;
    for (int word = 0; word < 4; ++word) {
        const std::uint32_t bits = device();
        for (int shift = 28; shift >= 0; shift -= 4)
            id += hex[(bits >> shift) & 0xf];
    }
    return id;
}

json parseOr(const std::string& text, json fallback)
{
    if (text.empty())
        return fallback;
    try {
        return json::parse(text);
    } catch (const json::exception&) {
        return fallback;
    }
}

// One SQLite connection and the words for its failures: every error names the file, and the two a user
// can act on (another process holds the lock; the file is not a run store or is damaged) say so plainly.
struct Connection {
    sqlite3* db = nullptr;
    std::string path;
    int busyTimeoutMs = RunStore::kDefaultBusyTimeoutMs;

    [[noreturn]] void fail(int rc) const
    {
        const std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        std::string message;
        switch (rc & 0xff) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            message = "the database is locked by another process (still busy after " + std::to_string(busyTimeoutMs) +
                      " ms); close the other program using it (another Attention Lab or an sqlite3 shell) and try "
                      "again (" + detail + ")";
            break;
        case SQLITE_NOTADB:
            message = "not an Attention Lab run database (" + detail + ")";
            break;
        case SQLITE_CORRUPT:
            message = "the run database is damaged (" + detail + "); restore a backup or use a new file";
            break;
        default:
            message = detail;
        }
        throw std::runtime_error("run store " + path + ": " + message);
    }
    void exec(const std::string& sql) const
    {
        const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
        if (rc != SQLITE_OK)
            fail(rc);
    }
    void rollback() const { sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr); }

    // Runs body inside BEGIN IMMEDIATE ... COMMIT; rolls back and rethrows on any error.
    template <typename Body>
    auto transaction(Body body) const
    {
        exec("BEGIN IMMEDIATE");
        try {
            if constexpr (std::is_void_v<decltype(body())>) {
                body();
                exec("COMMIT");
            } else {
                auto result = body();
                exec("COMMIT");
                return result;
            }
        } catch (...) {
            rollback();
            throw;
        }
    }
};

// A prepared statement that finalizes itself.
class Statement {
public:
    Statement(const Connection& c, const std::string& sql) : c_(c)
    {
        if (const int rc = sqlite3_prepare_v2(c.db, sql.c_str(), -1, &stmt_, nullptr); rc != SQLITE_OK)
            c.fail(rc);
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int i, const std::string& v) { sqlite3_bind_text(stmt_, i, v.c_str(), -1, SQLITE_TRANSIENT); return *this; }
    Statement& bind(int i, std::int64_t v) { sqlite3_bind_int64(stmt_, i, v); return *this; }
    Statement& bind(int i, int v) { sqlite3_bind_int64(stmt_, i, v); return *this; }
    Statement& bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); return *this; }
    Statement& bindTextOrNull(int i, const std::string& v) { return v.empty() ? bindNull(i) : bind(i, v); }
    Statement& bindNull(int i) { sqlite3_bind_null(stmt_, i); return *this; }
    bool step()
    {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        c_.fail(rc);
    }
    void run() { step(); reset(); }
    void reset() { sqlite3_reset(stmt_); sqlite3_clear_bindings(stmt_); }
    std::string text(int c) const
    {
        auto p = sqlite3_column_text(stmt_, c);
        return p ? reinterpret_cast<const char*>(p) : "";
    }
    std::int64_t integer(int c) const { return sqlite3_column_int64(stmt_, c); }
    double real(int c) const { return sqlite3_column_double(stmt_, c); }

private:
    const Connection& c_;
    sqlite3_stmt* stmt_ = nullptr;
};

const char* kRunColumns =
    "id, name, status, started_at, finished_at, config_json, seed, dataset, model, position, app_version, git_hash, "
    "torch_version, device, params, steps, seconds, best_dev, best_step, test_accuracy, message, "
    "uuid, group_key, host, tags, notes, environment_json, summary_json";

RunRecord readRun(const Statement& s)
{
    RunRecord r;
    r.id = s.integer(0);
    r.name = s.text(1);
    r.status = runStatusFromString(s.text(2));
    r.startedAt = s.text(3);
    r.finishedAt = s.text(4);
    r.configJson = s.text(5);
    r.seed = static_cast<std::uint64_t>(s.integer(6));
    r.dataset = s.text(7);
    r.model = s.text(8);
    r.position = s.text(9);
    r.appVersion = s.text(10);
    r.gitHash = s.text(11);
    r.torchVersion = s.text(12);
    r.device = s.text(13);
    r.parameters = s.integer(14);
    r.steps = static_cast<int>(s.integer(15));
    r.seconds = s.real(16);
    r.bestDevAccuracy = s.real(17);
    r.bestStep = static_cast<int>(s.integer(18));
    r.testAccuracy = s.real(19);
    r.message = s.text(20);
    r.uuid = s.text(21);
    r.groupKey = s.text(22);
    r.host = s.text(23);
    if (const json tags = parseOr(s.text(24), json::array()); tags.is_array())
        for (const auto& t : tags)
            if (t.is_string())
                r.tags.push_back(t.get<std::string>());
    r.notes = s.text(25);
    r.environmentJson = s.text(26);
    r.summaryJson = s.text(27);
    if (!r.summaryJson.empty()) {
        try {
            const RunSummary summary = RunSummary::fromJson(r.summaryJson);
            r.regression = summary.regression;
            r.testMacroF1 = summary.testMacroF1;
            r.bestDevRmse = summary.bestDevRmse;
            r.testMae = summary.testMae;
            r.testRmse = summary.testRmse;
            r.testMape = summary.testMape;
            r.stoppedEarly = summary.stoppedEarly;
        } catch (const std::invalid_argument&) {
            // A summary this build cannot read leaves the fields at zero; the columns above still hold.
        }
    }
    return r;
}

// Mean and sample standard deviation (n - 1), as the thesis reports repeats; std is 0 for one value.
std::pair<double, double> meanAndStd(const std::vector<double>& values)
{
    if (values.empty())
        return {0.0, 0.0};
    double sum = 0.0;
    for (double v : values)
        sum += v;
    const double mean = sum / static_cast<double>(values.size());
    if (values.size() < 2)
        return {mean, 0.0};
    double squares = 0.0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    return {mean, std::sqrt(squares / static_cast<double>(values.size() - 1))};
}

} // namespace

struct RunStore::Impl {
    Connection c;
    std::recursive_mutex mutex; // one connection, possibly two threads (training and StoreObserver's writer)

    int userVersion()
    {
        Statement s(c, "PRAGMA user_version");
        s.step();
        return static_cast<int>(s.integer(0));
    }
    void migrate();
    void migrateToVersion1();
    void migrateToVersion2();
};

void RunStore::Impl::migrate()
{
    const int version = userVersion();
    if (version > kSchemaVersion)
        throw std::runtime_error("run store " + c.path + ": written by a newer Attention Lab (schema " +
                                 std::to_string(version) + ", this build knows " + std::to_string(kSchemaVersion) + ")");
    if (version == 0) {
        // An SQLite file with someone else's tables is not ours to change.
        Statement tables(c, "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'");
        tables.step();
        if (tables.integer(0) > 0)
            throw std::runtime_error("run store " + c.path +
                                     ": not an Attention Lab run database (an SQLite file with other tables)");
    }
    if (version < 1)
        migrateToVersion1();
    if (version < 2)
        migrateToVersion2();
}

// Schema 1 exactly as the first release wrote it; later versions change it only by further steps.
void RunStore::Impl::migrateToVersion1()
{
    c.transaction([&] {
        c.exec("CREATE TABLE IF NOT EXISTS runs ("
               " id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, status TEXT NOT NULL,"
               " started_at TEXT NOT NULL, finished_at TEXT, config_json TEXT NOT NULL, seed INTEGER NOT NULL,"
               " dataset TEXT NOT NULL, model TEXT NOT NULL, position TEXT NOT NULL,"
               " app_version TEXT, git_hash TEXT, torch_version TEXT, device TEXT, host TEXT, pid INTEGER,"
               " params INTEGER DEFAULT 0, steps INTEGER DEFAULT 0, seconds REAL DEFAULT 0,"
               " best_dev REAL DEFAULT 0, best_step INTEGER DEFAULT 0, test_accuracy REAL DEFAULT 0, message TEXT);"
               "CREATE TABLE IF NOT EXISTS metrics ("
               " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, step INTEGER NOT NULL,"
               " split TEXT NOT NULL, name TEXT NOT NULL, value REAL NOT NULL);"
               "CREATE INDEX IF NOT EXISTS metrics_by_run ON metrics(run_id, step);"
               "CREATE TABLE IF NOT EXISTS attention ("
               " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, step INTEGER NOT NULL,"
               " snapshot_json TEXT NOT NULL);"
               "CREATE INDEX IF NOT EXISTS attention_by_run ON attention(run_id, step);"
               "PRAGMA user_version = 1;");
    });
}

// Schema 2: uuid, tags, notes, environment, summary and group key per run; characteristics and
// checkpoints tables. Runs written by schema 1 get their new columns filled from what they have.
void RunStore::Impl::migrateToVersion2()
{
    c.transaction([&] {
        if (userVersion() >= 2) // another process migrated while we waited for the lock
            return;
        c.exec("ALTER TABLE runs ADD COLUMN uuid TEXT;"
               "ALTER TABLE runs ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';"
               "ALTER TABLE runs ADD COLUMN notes TEXT NOT NULL DEFAULT '';"
               "ALTER TABLE runs ADD COLUMN environment_json TEXT NOT NULL DEFAULT '{}';"
               "ALTER TABLE runs ADD COLUMN summary_json TEXT NOT NULL DEFAULT '';"
               "ALTER TABLE runs ADD COLUMN group_key TEXT NOT NULL DEFAULT '';"
               "CREATE TABLE characteristics ("
               " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, name TEXT NOT NULL,"
               " value REAL NOT NULL, unit TEXT NOT NULL DEFAULT '');"
               "CREATE INDEX characteristics_by_run ON characteristics(run_id);"
               "CREATE TABLE checkpoints ("
               " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, step INTEGER NOT NULL,"
               " path TEXT NOT NULL, sha256 TEXT NOT NULL DEFAULT '');"
               "CREATE INDEX checkpoints_by_run ON checkpoints(run_id, step);");

        Statement old(c, "SELECT id, host, pid, started_at, config_json, status, steps, seconds, best_dev, best_step,"
                         " test_accuracy, params, device, message, app_version, git_hash, torch_version FROM runs");
        Statement update(c, "UPDATE runs SET uuid=?, group_key=?, summary_json=?, environment_json=? WHERE id=?");
        while (old.step()) {
            // A uuid derived from what identifies the old run, so migrating two copies of one file gives
            // the same uuids and merging them later adds nothing twice.
            const std::string uuid = Sha256::ofText("attnlab-v1-run|" + old.text(1) + "|" + old.text(2) + "|" +
                                                    old.text(3) + "|" + old.text(0) + "|" + old.text(4))
                                         .substr(0, 32);
            std::string summaryJson;
            if (const auto status = runStatusFromString(old.text(5)); status != RunStatus::Running) {
                RunSummary s;
                s.status = status;
                s.steps = static_cast<int>(old.integer(6));
                s.seconds = old.real(7);
                s.bestDevAccuracy = old.real(8);
                s.bestStep = static_cast<int>(old.integer(9));
                s.testAccuracy = old.real(10);
                s.parameters = old.integer(11);
                s.device = old.text(12);
                s.message = old.text(13);
                summaryJson = s.toJson();
            }
            const json environment = {{"app_version", old.text(14)}, {"git_hash", old.text(15)},
                                      {"torch_version", old.text(16)}, {"device", old.text(12)},
                                      {"host", old.text(1)}};
            update.bind(1, uuid).bind(2, RunStore::groupKeyOf(old.text(4))).bind(3, summaryJson)
                .bind(4, environment.dump()).bind(5, old.integer(0));
            update.run();
        }
        c.exec("CREATE UNIQUE INDEX runs_by_uuid ON runs(uuid);"
               "CREATE INDEX runs_by_group ON runs(group_key);"
               "PRAGMA user_version = 2;");
    });
}

RunStore::RunStore(const std::string& path, int busyTimeoutMs) : impl_(std::make_unique<Impl>())
{
    Connection& c = impl_->c;
    c.path = path;
    c.busyTimeoutMs = busyTimeoutMs;
    const auto parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec);
    if (sqlite3_open_v2(path.c_str(), &c.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
        std::string message = c.db ? sqlite3_errmsg(c.db) : "cannot allocate";
        sqlite3_close(c.db);
        c.db = nullptr;
        throw std::runtime_error("run store " + path + ": cannot open: " + message);
    }
    sqlite3_busy_timeout(c.db, busyTimeoutMs);
    try {
        // Reading the schema first turns "file is not a database" into a clear error here.
        c.exec("PRAGMA foreign_keys = ON");
        c.exec("PRAGMA journal_mode = WAL");
        c.exec("PRAGMA synchronous = NORMAL");
        impl_->migrate();
        markInterruptedRuns();
    } catch (...) {
        sqlite3_close(c.db);
        c.db = nullptr;
        throw;
    }
}

RunStore::~RunStore()
{
    if (impl_ && impl_->c.db)
        sqlite3_close(impl_->c.db);
}

const std::string& RunStore::path() const { return impl_->c.path; }

std::string RunStore::defaultPath()
{
    if (const char* db = std::getenv("ATTNLAB_DB"); db && *db)
        return db;
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".local" / "share";
    else
        base = std::filesystem::current_path();
    return (base / "attnlab" / "runs.sqlite").string();
}

std::string RunStore::groupKeyOf(const std::string& configJson)
{
    json config = parseOr(configJson, json());
    if (!config.is_object())
        return configJson;
    config.erase("seed");
    config.erase("checkpoint_dir"); // where weights are saved does not change the experiment
    return config.dump(); // nlohmann's objects keep keys sorted: one text per configuration
}

std::int64_t RunStore::beginRun(const RunInfo& info)
{
    std::lock_guard lock(impl_->mutex);
    const auto& c = info.config;
    const std::string configJson = c.toJson();
    const json environment = {
        {"app_version", BuildInfo::appVersion()}, {"git_hash", BuildInfo::gitHash()},
        {"torch_version", info.torchVersion},     {"device", info.device},
        {"host", hostName()},                     {"os", operatingSystem()},
        {"cpu_model", cpuModel()},                {"cpu_cores", std::thread::hardware_concurrency()},
        {"dataset", c.dataset},
    };
    Statement s(impl_->c,
                "INSERT INTO runs (name, status, started_at, config_json, seed, dataset, model, position, app_version,"
                " git_hash, torch_version, device, host, pid, params, uuid, group_key, environment_json)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    const std::string name = c.model.model + (c.model.position != "none" ? "+" + c.model.position : "") + " on " + c.dataset;
    s.bind(1, name).bind(2, toString(RunStatus::Running)).bind(3, nowIso()).bind(4, configJson)
        .bind(5, static_cast<std::int64_t>(c.seed)).bind(6, c.dataset).bind(7, c.model.model).bind(8, c.model.position)
        .bind(9, BuildInfo::appVersion()).bind(10, BuildInfo::gitHash()).bind(11, info.torchVersion)
        .bind(12, info.device).bind(13, hostName()).bind(14, static_cast<std::int64_t>(getpid()))
        .bind(15, info.parameters).bind(16, randomUuid()).bind(17, groupKeyOf(configJson)).bind(18, environment.dump());
    s.step();
    return sqlite3_last_insert_rowid(impl_->c.db);
}

void RunStore::appendMetrics(std::int64_t runId, const std::vector<MetricPoint>& points)
{
    if (points.empty())
        return;
    std::lock_guard lock(impl_->mutex);
    impl_->c.transaction([&] {
        Statement s(impl_->c, "INSERT INTO metrics (run_id, step, split, name, value) VALUES (?,?,?,?,?)");
        for (const auto& p : points) {
            s.bind(1, runId).bind(2, p.step).bind(3, p.split).bind(4, p.name).bind(5, p.value);
            s.run();
        }
    });
}

void RunStore::appendAttention(std::int64_t runId, const AttentionSnapshot& snapshot)
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "INSERT INTO attention (run_id, step, snapshot_json) VALUES (?,?,?)");
    s.bind(1, runId).bind(2, snapshot.step).bind(3, snapshot.toJson());
    s.step();
}

void RunStore::finishRun(std::int64_t runId, const RunSummary& summary)
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c,
                "UPDATE runs SET status=?, finished_at=?, steps=?, seconds=?, best_dev=?, best_step=?, test_accuracy=?,"
                " params=?, device=COALESCE(NULLIF(?, ''), device), message=?, summary_json=? WHERE id=?");
    s.bind(1, toString(summary.status)).bind(2, nowIso()).bind(3, summary.steps).bind(4, summary.seconds)
        .bind(5, summary.bestDevAccuracy).bind(6, summary.bestStep).bind(7, summary.testAccuracy)
        .bind(8, summary.parameters).bind(9, summary.device).bind(10, summary.message).bind(11, summary.toJson())
        .bind(12, runId);
    s.step();
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
    impl_->c.transaction([&] {
        Statement read(impl_->c, "SELECT environment_json FROM runs WHERE id=?");
        read.bind(1, runId);
        if (!read.step())
            throw std::invalid_argument("run store " + path() + ": no run " + std::to_string(runId));
        json environment = parseOr(read.text(0), json::object());
        if (!environment.is_object())
            environment = json::object();
        environment.update(given); // the caller's keys replace ours
        Statement write(impl_->c, "UPDATE runs SET environment_json=? WHERE id=?");
        write.bind(1, environment.dump()).bind(2, runId);
        write.step();
    });
}

void RunStore::setTags(std::int64_t runId, const std::vector<std::string>& tags)
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "UPDATE runs SET tags=? WHERE id=?");
    s.bind(1, json(tags).dump()).bind(2, runId);
    s.step();
}

void RunStore::setNotes(std::int64_t runId, const std::string& notes)
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "UPDATE runs SET notes=? WHERE id=?");
    s.bind(1, notes).bind(2, runId);
    s.step();
}

void RunStore::appendCharacteristics(std::int64_t runId, const std::vector<Characteristic>& values)
{
    if (values.empty())
        return;
    std::lock_guard lock(impl_->mutex);
    impl_->c.transaction([&] {
        Statement s(impl_->c, "INSERT INTO characteristics (run_id, name, value, unit) VALUES (?,?,?,?)");
        for (const auto& v : values) {
            s.bind(1, runId).bind(2, v.name).bind(3, v.value).bind(4, v.unit);
            s.run();
        }
    });
}

void RunStore::addCheckpoint(std::int64_t runId, int step, const std::string& file, const std::string& sha256)
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "INSERT INTO checkpoints (run_id, step, path, sha256) VALUES (?,?,?,?)");
    s.bind(1, runId).bind(2, step).bind(3, file).bind(4, sha256);
    s.step();
}

std::vector<RunRecord> RunStore::listRuns() const
{
    return listRuns(RunFilter{});
}

std::vector<RunRecord> RunStore::listRuns(const RunFilter& filter) const
{
    std::string sql = std::string("SELECT ") + kRunColumns + " FROM runs WHERE 1";
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

    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, sql);
    for (std::size_t i = 0; i < values.size(); ++i)
        s.bind(static_cast<int>(i + 1), values[i]);
    std::vector<RunRecord> runs;
    while (s.step())
        runs.push_back(readRun(s));
    return runs;
}

std::optional<RunRecord> RunStore::run(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, std::string("SELECT ") + kRunColumns + " FROM runs WHERE id=?");
    s.bind(1, runId);
    if (!s.step())
        return std::nullopt;
    return readRun(s);
}

std::vector<MetricPoint> RunStore::metrics(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "SELECT step, split, name, value FROM metrics WHERE run_id=? ORDER BY step, rowid");
    s.bind(1, runId);
    std::vector<MetricPoint> points;
    while (s.step())
        points.push_back({static_cast<int>(s.integer(0)), s.text(1), s.text(2), s.real(3)});
    return points;
}

std::vector<std::pair<int, double>> RunStore::metricSeries(std::int64_t runId, const std::string& split,
                                                           const std::string& name) const
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "SELECT step, value FROM metrics WHERE run_id=? AND split=? AND name=? ORDER BY step, rowid");
    s.bind(1, runId).bind(2, split).bind(3, name);
    std::vector<std::pair<int, double>> series;
    while (s.step())
        series.emplace_back(static_cast<int>(s.integer(0)), s.real(1));
    return series;
}

std::optional<AttentionSnapshot> RunStore::latestAttention(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "SELECT snapshot_json FROM attention WHERE run_id=? ORDER BY step DESC, rowid DESC LIMIT 1");
    s.bind(1, runId);
    if (!s.step())
        return std::nullopt;
    return AttentionSnapshot::fromJson(s.text(0));
}

std::vector<Characteristic> RunStore::characteristics(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "SELECT name, value, unit FROM characteristics WHERE run_id=? ORDER BY rowid");
    s.bind(1, runId);
    std::vector<Characteristic> values;
    while (s.step())
        values.push_back({s.text(0), s.real(1), s.text(2)});
    return values;
}

std::vector<CheckpointRef> RunStore::checkpoints(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    Statement s(impl_->c, "SELECT step, path, sha256 FROM checkpoints WHERE run_id=? ORDER BY step, rowid");
    s.bind(1, runId);
    std::vector<CheckpointRef> refs;
    while (s.step())
        refs.push_back({static_cast<int>(s.integer(0)), s.text(1), s.text(2)});
    return refs;
}

std::vector<RunAggregate> RunStore::aggregates() const
{
    struct Group {
        RunAggregate aggregate;
        std::vector<double> testAccuracy, testRmse, bestDevAccuracy, bestDevRmse;
    };
    std::vector<Group> groups;
    std::map<std::string, std::size_t> index; // group key -> position in groups
    {
        std::lock_guard lock(impl_->mutex);
        Statement s(impl_->c, "SELECT group_key, dataset, model, position, status, summary_json FROM runs"
                              " ORDER BY dataset, model, position, group_key, id");
        while (s.step()) {
            const std::string key = s.text(0);
            auto [it, added] = index.emplace(key, groups.size());
            if (added) {
                groups.emplace_back();
                auto& a = groups.back().aggregate;
                a.groupKey = key;
                a.dataset = s.text(1);
                a.model = s.text(2);
                a.position = s.text(3);
            }
            Group& g = groups[it->second];
            ++g.aggregate.runs;
            if (s.text(4) != toString(RunStatus::Completed) || s.text(5).empty())
                continue;
            RunSummary summary;
            try {
                summary = RunSummary::fromJson(s.text(5));
            } catch (const std::invalid_argument&) {
                continue;
            }
            ++g.aggregate.completed;
            g.aggregate.regression = g.aggregate.regression || summary.regression;
            g.testAccuracy.push_back(summary.testAccuracy);
            g.bestDevAccuracy.push_back(summary.bestDevAccuracy);
            g.testRmse.push_back(summary.testRmse);
            g.bestDevRmse.push_back(summary.bestDevRmse);
        }
    }
    std::vector<RunAggregate> result;
    for (auto& g : groups) {
        auto& a = g.aggregate;
        if (a.regression) {
            std::tie(a.testRmseMean, a.testRmseStd) = meanAndStd(g.testRmse);
            a.bestDevMean = meanAndStd(g.bestDevRmse).first;
        } else {
            std::tie(a.testAccuracyMean, a.testAccuracyStd) = meanAndStd(g.testAccuracy);
            a.bestDevMean = meanAndStd(g.bestDevAccuracy).first;
        }
        result.push_back(a);
    }
    return result;
}

int RunStore::markInterruptedRuns()
{
    std::lock_guard lock(impl_->mutex);
    // A run still "running" whose process on this host is gone was killed or crashed.
    Statement select(impl_->c, "SELECT id, host, pid FROM runs WHERE status='running'");
    std::vector<std::int64_t> dead;
    const std::string host = hostName();
    while (select.step()) {
        const auto pid = static_cast<pid_t>(select.integer(2));
        const bool sameHost = select.text(1) == host;
        const bool alive = sameHost && pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
        if (sameHost && !alive)
            dead.push_back(select.integer(0));
    }
    for (auto id : dead) {
        Statement update(impl_->c,
                         "UPDATE runs SET status='interrupted', message='the training process ended without finishing"
                         " the run (killed or crashed)', steps=(SELECT COALESCE(MAX(step),0) FROM metrics WHERE run_id=?)"
                         " WHERE id=? AND status='running'");
        update.bind(1, id).bind(2, id);
        update.step();
    }
    return static_cast<int>(dead.size());
}

RunBundle RunStore::bundle(std::int64_t runId) const
{
    std::lock_guard lock(impl_->mutex);
    RunBundle b;
    auto record = run(runId);
    if (!record)
        throw std::invalid_argument("run store " + path() + ": no run " + std::to_string(runId));
    b.record = std::move(*record);
    b.metrics = metrics(runId);
    Statement s(impl_->c, "SELECT snapshot_json FROM attention WHERE run_id=? ORDER BY step, rowid");
    s.bind(1, runId);
    while (s.step())
        b.attentionJson.push_back(s.text(0));
    b.characteristics = characteristics(runId);
    b.checkpoints = checkpoints(runId);
    return b;
}

std::int64_t RunStore::importRun(const RunBundle& b)
{
    const RunRecord& r = b.record;
    if (r.uuid.empty())
        throw std::invalid_argument("run store " + path() + ": an imported run needs a uuid");
    std::lock_guard lock(impl_->mutex);
    return impl_->c.transaction([&]() -> std::int64_t {
        Statement exists(impl_->c, "SELECT 1 FROM runs WHERE uuid=?");
        exists.bind(1, r.uuid);
        if (exists.step())
            return 0;
        // No pid: the run's process belongs to the store it came from.
        Statement s(impl_->c,
                    "INSERT INTO runs (name, status, started_at, finished_at, config_json, seed, dataset, model, position,"
                    " app_version, git_hash, torch_version, device, host, params, steps, seconds, best_dev, best_step,"
                    " test_accuracy, message, uuid, group_key, tags, notes, environment_json, summary_json)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        s.bind(1, r.name).bind(2, toString(r.status)).bind(3, r.startedAt).bindTextOrNull(4, r.finishedAt).bind(5, r.configJson)
            .bind(6, static_cast<std::int64_t>(r.seed)).bind(7, r.dataset).bind(8, r.model).bind(9, r.position)
            .bind(10, r.appVersion).bind(11, r.gitHash).bind(12, r.torchVersion).bind(13, r.device).bind(14, r.host)
            .bind(15, r.parameters).bind(16, r.steps).bind(17, r.seconds).bind(18, r.bestDevAccuracy)
            .bind(19, r.bestStep).bind(20, r.testAccuracy).bind(21, r.message).bind(22, r.uuid)
            .bind(23, groupKeyOf(r.configJson)).bind(24, json(r.tags).dump()).bind(25, r.notes)
            .bind(26, r.environmentJson.empty() ? std::string("{}") : r.environmentJson).bind(27, r.summaryJson);
        s.step();
        const std::int64_t id = sqlite3_last_insert_rowid(impl_->c.db);

        Statement metric(impl_->c, "INSERT INTO metrics (run_id, step, split, name, value) VALUES (?,?,?,?,?)");
        for (const auto& p : b.metrics) {
            metric.bind(1, id).bind(2, p.step).bind(3, p.split).bind(4, p.name).bind(5, p.value);
            metric.run();
        }
        Statement attention(impl_->c, "INSERT INTO attention (run_id, step, snapshot_json) VALUES (?,?,?)");
        for (const auto& text : b.attentionJson) {
            const json snapshot = parseOr(text, json::object());
            const int step = snapshot.is_object() ? snapshot.value("step", 0) : 0;
            attention.bind(1, id).bind(2, step).bind(3, text);
            attention.run();
        }
        Statement characteristic(impl_->c, "INSERT INTO characteristics (run_id, name, value, unit) VALUES (?,?,?,?)");
        for (const auto& v : b.characteristics) {
            characteristic.bind(1, id).bind(2, v.name).bind(3, v.value).bind(4, v.unit);
            characteristic.run();
        }
        Statement checkpoint(impl_->c, "INSERT INTO checkpoints (run_id, step, path, sha256) VALUES (?,?,?,?)");
        for (const auto& ref : b.checkpoints) {
            checkpoint.bind(1, id).bind(2, ref.step).bind(3, ref.path).bind(4, ref.sha256);
            checkpoint.run();
        }
        return id;
    });
}

} // namespace attnlab
