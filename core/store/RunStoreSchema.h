#pragma once

namespace attnlab {

class SqliteConnection;

// The run store's tables (private to core/store): the schema version lives in PRAGMA user_version, and
// migrate() brings an older file up to RunStore::kSchemaVersion one step at a time, each step in one
// transaction. What a released step does to a file never changes: files of every older version must
// keep migrating.
class RunStoreSchema {
public:
    explicit RunStoreSchema(const SqliteConnection& connection);

    // Throws std::runtime_error naming the file for a newer schema or an SQLite file with other tables.
    void migrate() const;
    int version() const;
    // The analyses table, made by the first analysis stored; see RunStoreSchema.cpp.
    static void addAnalysesTable(const SqliteConnection& connection);
    static bool hasAnalysesTable(const SqliteConnection& connection);

private:
    void migrateToVersion1() const;
    void migrateToVersion2() const;
    void migrateToVersion3() const;

    void addReadIndexes() const;

    const SqliteConnection& connection_;
};

} // namespace attnlab
