#include "core/store/RunStoreSchema.h"

#include "core/data/install/Sha256.h"
#include "core/store/RunColumns.h"
#include "core/store/RunStore.h"
#include "core/store/SqliteConnection.h"
#include "core/store/SqliteStatement.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace attnlab {

RunStoreSchema::RunStoreSchema(const SqliteConnection& connection) : connection_(connection) {}

int RunStoreSchema::version() const
{
    SqliteStatement s(connection_, "PRAGMA user_version");
    s.step();
    return static_cast<int>(s.integer(0));
}

void RunStoreSchema::migrate() const
{
    const int found = version();
    if (found > RunStore::kSchemaVersion)
        throw std::runtime_error("run store " + connection_.path() + ": written by a newer Attention Lab (schema " +
                                 std::to_string(found) + ", this build knows " +
                                 std::to_string(RunStore::kSchemaVersion) + ")");
    if (found == 0) {
        // An SQLite file with someone else's tables is not ours to change. Version and tables are read in
        // one transaction: another process creating this store between two separate reads would show its
        // fresh tables next to the version 0 read before, and look foreign.
        connection_.transaction([&] {
            if (version() > 0)
                return;
            SqliteStatement tables(connection_, "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'");
            tables.step();
            if (tables.integer(0) > 0)
                throw std::runtime_error("run store " + connection_.path() +
                                         ": not an Attention Lab run database (an SQLite file with other tables)");
        });
    }
    if (found < 1)
        migrateToVersion1();
    if (found < 2)
        migrateToVersion2();
    if (found < 3)
        migrateToVersion3();
    addReadIndexes();
}

// Indexes only speed up reads and leave the format alone (older builds open the file as before), so
// they need no schema version: created at open where missing.
void RunStoreSchema::addReadIndexes() const
{
    SqliteStatement exists(connection_, "SELECT 1 FROM sqlite_master WHERE type='index' AND name='metrics_curves'");
    if (exists.step())
        return;
    // One metric of many runs (the compare view's curves): a covering index, so reading a curve walks
    // the index alone and never the other metrics' rows (1 M of 3 M rows: 107 ms, against 323 ms without
    // `value` in it and 422 ms along metrics_by_run; docs/BENCHMARKS.md).
    // Created once per file: ~6 s on a 3 M-row store, milliseconds on a usual one.
    connection_.exec("CREATE INDEX IF NOT EXISTS metrics_curves ON metrics(run_id, split, name, step, value)");
}

// Schema 1 exactly as the first release wrote it; later versions change it only by further steps.
void RunStoreSchema::migrateToVersion1() const
{
    connection_.transaction([&] {
        // Another process may have created (and migrated) the store since we read its version: setting
        // user_version back to 1 here would make our version-2 step add its columns a second time.
        if (version() >= 1)
            return;
        connection_.exec(
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
            "PRAGMA user_version = 1;");
    });
}

// Schema 2: uuid, tags, notes, environment, summary and group key per run; characteristics and
// checkpoints tables. Runs written by schema 1 get their new columns filled from what they have.
void RunStoreSchema::migrateToVersion2() const
{
    connection_.transaction([&] {
        if (version() >= 2) // another process migrated while we waited for the lock
            return;
        connection_.exec(
            "ALTER TABLE runs ADD COLUMN uuid TEXT;"
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

        SqliteStatement old(connection_, "SELECT id, host, pid, started_at, config_json, app_version, git_hash,"
                                         " torch_version, " + RunColumns::resultColumns() + " FROM runs");
        SqliteStatement update(connection_,
                               "UPDATE runs SET uuid=?, group_key=?, summary_json=?, environment_json=? WHERE id=?");
        while (old.step()) {
            // A uuid derived from what identifies the old run, so migrating two copies of one file gives
            // the same uuids and merging them later adds nothing twice.
            const std::string uuid = Sha256::ofText("attnlab-v1-run|" + old.text(1) + "|" + old.text(2) + "|" +
                                                    old.text(3) + "|" + old.text(0) + "|" + old.text(4))
                                         .substr(0, 32);
            // Schema 1 kept only the result columns; the summary of a finished run is made from them.
            RunRecord result;
            RunColumns::readResult(old, 8, result);
            const std::string summaryJson = result.status != RunStatus::Running ? result.summary().toJson() : "";
            const nlohmann::json environment = {{"app_version", old.text(5)}, {"git_hash", old.text(6)},
                                                {"torch_version", old.text(7)}, {"device", result.device},
                                                {"host", old.text(1)}};
            update.bind(1, uuid).bind(2, RunStore::groupKeyOf(old.text(4))).bind(3, summaryJson)
                .bind(4, environment.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).bind(5, old.integer(0));
            update.run();
        }
        connection_.exec("CREATE UNIQUE INDEX runs_by_uuid ON runs(uuid);"
                         "CREATE INDEX runs_by_group ON runs(group_key);"
                         "PRAGMA user_version = 2;");
    });
}

// Schema 3: the summary fields the run list shows become columns (filled here from summary_json), so
// listing 10,000 runs parses no JSON; indexes for the list's order (newest first) and for the runs still
// marked running that every open looks for. Measured in docs/BENCHMARKS.md ("Run list at 10,000 runs").
void RunStoreSchema::migrateToVersion3() const
{
    connection_.transaction([&] {
        if (version() >= 3) // another process migrated while we waited for the lock
            return;
        connection_.exec("ALTER TABLE runs ADD COLUMN regression INTEGER NOT NULL DEFAULT 0;"
                         "ALTER TABLE runs ADD COLUMN test_macro_f1 REAL NOT NULL DEFAULT 0;"
                         "ALTER TABLE runs ADD COLUMN test_rmse REAL NOT NULL DEFAULT 0;"
                         "ALTER TABLE runs ADD COLUMN test_mae REAL NOT NULL DEFAULT 0;"
                         "ALTER TABLE runs ADD COLUMN test_mape REAL NOT NULL DEFAULT 0;"
                         "ALTER TABLE runs ADD COLUMN best_dev_rmse REAL NOT NULL DEFAULT 0;"
                         "ALTER TABLE runs ADD COLUMN stopped_early INTEGER NOT NULL DEFAULT 0;");
        SqliteStatement old(connection_, "SELECT id, summary_json FROM runs WHERE summary_json <> ''");
        SqliteStatement update(connection_, "UPDATE runs SET regression=?, test_macro_f1=?, test_rmse=?, test_mae=?,"
                                            " test_mape=?, best_dev_rmse=?, stopped_early=? WHERE id=?");
        while (old.step()) {
            RunRecord r;
            RunColumns::readSummaryFields(old.text(1), r);
            update.bind(1, r.regression ? 1 : 0).bind(2, r.testMacroF1).bind(3, r.testRmse).bind(4, r.testMae)
                .bind(5, r.testMape).bind(6, r.bestDevRmse).bind(7, r.stoppedEarly ? 1 : 0).bind(8, old.integer(0));
            update.run();
        }
        connection_.exec("CREATE INDEX runs_by_started ON runs(started_at);"
                         "CREATE INDEX runs_by_status ON runs(status);"
                         "PRAGMA user_version = 3;");
    });
}

// Analyses made on finished runs and kept with them (faithfulness per split), one row per run, kind
// and key, the result as JSON. Created by the first analysis stored, not at open: older builds open the file as
// before and ignore it, and a store that never keeps one is byte for byte what it was. (Created at every open,
// the table made test_gui's rename-over-a-live-file case read the new file through the old file's WAL; not
// understood yet, so not done.) Each row names its run's uuid too and is read only while the run with that id
// has that uuid: rows an older build left behind when it deleted their run never attach to a later run that
// gets the same id.
void RunStoreSchema::addAnalysesTable(const SqliteConnection& connection)
{
    connection.exec("CREATE TABLE IF NOT EXISTS analyses ("
                    " run_id INTEGER NOT NULL, run_uuid TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL,"
                    " json TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (run_id, kind, key))");
}

bool RunStoreSchema::hasAnalysesTable(const SqliteConnection& connection)
{
    SqliteStatement exists(connection, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='analyses'");
    return exists.step();
}

} // namespace attnlab
