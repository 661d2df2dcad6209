#include "core/RunStore.h"

#include "core/BuildInfo.h"

#include <sqlite3.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <signal.h>
#include <stdexcept>
#include <unistd.h>

namespace attnlab {
namespace {

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

// A prepared statement that finalizes itself.
class Statement {
public:
    Statement(sqlite3* db, const std::string& sql, const std::string& path) : db_(db)
    {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
            throw std::runtime_error("run store " + path + ": " + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int i, const std::string& v) { sqlite3_bind_text(stmt_, i, v.c_str(), -1, SQLITE_TRANSIENT); return *this; }
    Statement& bind(int i, std::int64_t v) { sqlite3_bind_int64(stmt_, i, v); return *this; }
    Statement& bind(int i, int v) { sqlite3_bind_int64(stmt_, i, v); return *this; }
    Statement& bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); return *this; }
    bool step(const std::string& path)
    {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw std::runtime_error("run store " + path + ": " + sqlite3_errmsg(db_));
    }
    void reset() { sqlite3_reset(stmt_); sqlite3_clear_bindings(stmt_); }
    std::string text(int c) const
    {
        auto p = sqlite3_column_text(stmt_, c);
        return p ? reinterpret_cast<const char*>(p) : "";
    }
    std::int64_t integer(int c) const { return sqlite3_column_int64(stmt_, c); }
    double real(int c) const { return sqlite3_column_double(stmt_, c); }

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

const char* kRunColumns =
    "id, name, status, started_at, finished_at, config_json, seed, dataset, model, position, app_version, git_hash, "
    "torch_version, device, params, steps, seconds, best_dev, best_step, test_accuracy, message";

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
    return r;
}

} // namespace

struct RunStore::Impl {
    std::string path;
    sqlite3* db = nullptr;

    void exec(const std::string& sql)
    {
        char* error = nullptr;
        if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            std::string message = error ? error : "unknown error";
            sqlite3_free(error);
            throw std::runtime_error("run store " + path + ": " + message);
        }
    }
    int userVersion()
    {
        Statement s(db, "PRAGMA user_version", path);
        s.step(path);
        return static_cast<int>(s.integer(0));
    }
    void migrate()
    {
        const int version = userVersion();
        if (version > kSchemaVersion)
            throw std::runtime_error("run store " + path + ": written by a newer Attention Lab (schema " +
                                     std::to_string(version) + ", this build knows " + std::to_string(kSchemaVersion) + ")");
        if (version < 1) {
            exec("BEGIN IMMEDIATE;"
                 "CREATE TABLE IF NOT EXISTS runs ("
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
                 "PRAGMA user_version = 1;"
                 "COMMIT;");
        }
    }
};

RunStore::RunStore(const std::string& path) : impl_(std::make_unique<Impl>())
{
    impl_->path = path;
    const auto parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec);
    if (sqlite3_open_v2(path.c_str(), &impl_->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
        std::string message = impl_->db ? sqlite3_errmsg(impl_->db) : "cannot allocate";
        sqlite3_close(impl_->db);
        impl_->db = nullptr;
        throw std::runtime_error("run store " + path + ": cannot open: " + message);
    }
    sqlite3_busy_timeout(impl_->db, 5000); // the GUI and a CLI run may share one file
    try {
        // Reading the schema first turns "file is not a database" into a clear error here.
        impl_->exec("PRAGMA foreign_keys = ON");
        impl_->exec("PRAGMA journal_mode = WAL");
        impl_->exec("PRAGMA synchronous = NORMAL");
        impl_->migrate();
        markInterruptedRuns();
    } catch (...) {
        sqlite3_close(impl_->db);
        impl_->db = nullptr;
        throw;
    }
}

RunStore::~RunStore()
{
    if (impl_ && impl_->db)
        sqlite3_close(impl_->db);
}

const std::string& RunStore::path() const { return impl_->path; }

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

std::int64_t RunStore::beginRun(const RunInfo& info)
{
    const auto& c = info.config;
    Statement s(impl_->db,
                "INSERT INTO runs (name, status, started_at, config_json, seed, dataset, model, position, app_version,"
                " git_hash, torch_version, device, host, pid, params) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                impl_->path);
    const std::string name = c.model.model + (c.model.position != "none" ? "+" + c.model.position : "") + " on " + c.dataset;
    s.bind(1, name).bind(2, toString(RunStatus::Running)).bind(3, nowIso()).bind(4, c.toJson())
        .bind(5, static_cast<std::int64_t>(c.seed)).bind(6, c.dataset).bind(7, c.model.model).bind(8, c.model.position)
        .bind(9, BuildInfo::appVersion()).bind(10, BuildInfo::gitHash()).bind(11, info.torchVersion)
        .bind(12, info.device).bind(13, hostName()).bind(14, static_cast<std::int64_t>(getpid()))
        .bind(15, info.parameters);
    s.step(impl_->path);
    return sqlite3_last_insert_rowid(impl_->db);
}

void RunStore::appendMetrics(std::int64_t runId, const std::vector<MetricPoint>& points)
{
    if (points.empty())
        return;
    impl_->exec("BEGIN IMMEDIATE");
    try {
        Statement s(impl_->db, "INSERT INTO metrics (run_id, step, split, name, value) VALUES (?,?,?,?,?)", impl_->path);
        for (const auto& p : points) {
            s.bind(1, runId).bind(2, p.step).bind(3, p.split).bind(4, p.name).bind(5, p.value);
            s.step(impl_->path);
            s.reset();
        }
        impl_->exec("COMMIT");
    } catch (...) {
        sqlite3_exec(impl_->db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

void RunStore::appendAttention(std::int64_t runId, const AttentionSnapshot& snapshot)
{
    Statement s(impl_->db, "INSERT INTO attention (run_id, step, snapshot_json) VALUES (?,?,?)", impl_->path);
    s.bind(1, runId).bind(2, snapshot.step).bind(3, snapshot.toJson());
    s.step(impl_->path);
}

void RunStore::finishRun(std::int64_t runId, const RunSummary& summary)
{
    Statement s(impl_->db,
                "UPDATE runs SET status=?, finished_at=?, steps=?, seconds=?, best_dev=?, best_step=?, test_accuracy=?,"
                " params=?, device=COALESCE(NULLIF(?, ''), device), message=? WHERE id=?",
                impl_->path);
    s.bind(1, toString(summary.status)).bind(2, nowIso()).bind(3, summary.steps).bind(4, summary.seconds)
        .bind(5, summary.bestDevAccuracy).bind(6, summary.bestStep).bind(7, summary.testAccuracy)
        .bind(8, summary.parameters).bind(9, summary.device).bind(10, summary.message).bind(11, runId);
    s.step(impl_->path);
}

std::vector<RunRecord> RunStore::listRuns() const
{
    Statement s(impl_->db, std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY id DESC", impl_->path);
    std::vector<RunRecord> runs;
    while (s.step(impl_->path))
        runs.push_back(readRun(s));
    return runs;
}

std::optional<RunRecord> RunStore::run(std::int64_t runId) const
{
    Statement s(impl_->db, std::string("SELECT ") + kRunColumns + " FROM runs WHERE id=?", impl_->path);
    s.bind(1, runId);
    if (!s.step(impl_->path))
        return std::nullopt;
    return readRun(s);
}

std::vector<MetricPoint> RunStore::metrics(std::int64_t runId) const
{
    Statement s(impl_->db, "SELECT step, split, name, value FROM metrics WHERE run_id=? ORDER BY step, rowid", impl_->path);
    s.bind(1, runId);
    std::vector<MetricPoint> points;
    while (s.step(impl_->path))
        points.push_back({static_cast<int>(s.integer(0)), s.text(1), s.text(2), s.real(3)});
    return points;
}

std::optional<AttentionSnapshot> RunStore::latestAttention(std::int64_t runId) const
{
    Statement s(impl_->db, "SELECT snapshot_json FROM attention WHERE run_id=? ORDER BY step DESC LIMIT 1", impl_->path);
    s.bind(1, runId);
    if (!s.step(impl_->path))
        return std::nullopt;
    return AttentionSnapshot::fromJson(s.text(0));
}

int RunStore::markInterruptedRuns()
{
    // A run still "running" whose process on this host is gone was killed or crashed.
    Statement select(impl_->db, "SELECT id, host, pid FROM runs WHERE status='running'", impl_->path);
    std::vector<std::int64_t> dead;
    const std::string host = hostName();
    while (select.step(impl_->path)) {
        const auto pid = static_cast<pid_t>(select.integer(2));
        const bool sameHost = select.text(1) == host;
        const bool alive = sameHost && pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
        if (sameHost && !alive)
            dead.push_back(select.integer(0));
    }
    for (auto id : dead) {
        Statement update(impl_->db,
                         "UPDATE runs SET status='interrupted', message='the training process ended without finishing"
                         " the run (killed or crashed)', steps=(SELECT COALESCE(MAX(step),0) FROM metrics WHERE run_id=?)"
                         " WHERE id=? AND status='running'",
                         impl_->path);
        update.bind(1, id).bind(2, id);
        update.step(impl_->path);
    }
    return static_cast<int>(dead.size());
}

} // namespace attnlab
