#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

struct sqlite3;

namespace attnlab {

// One open SQLite connection of the run store (private to core/store) and the words for its failures:
// every error names the file ("run store FILE: ..."), and those a user can act on (another process holds
// the lock: a StoreLockedError; the file is not a run store or is damaged; the disk is full or a file-size
// limit was hit; the file is read-only; it was deleted while open) say so plainly. Not thread-safe by itself:
// RunStore serialises its calls.
class SqliteConnection {
public:
    // Opens the file read-write, creating it (and its folder) when missing; throws std::runtime_error. A
    // file in a folder this process cannot write is opened read-only (immutable), so it can still be read.
    SqliteConnection(const std::string& path, int busyTimeoutMs);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    const std::string& path() const { return path_; }
    // Whether the file this connection opened has been deleted, moved or replaced since (SQLite goes on
    // writing to the open file, which then belongs to no name: every later row would be lost at exit).
    bool hasMoved() const;
    // Closes the connection and opens the file at path() again (after it was written back there).
    void reopen();
    sqlite3* handle() const { return db_; }
    std::int64_t lastInsertId() const;
    int changes() const; // rows the last INSERT, UPDATE or DELETE touched

    [[noreturn]] void fail(int rc) const; // throws the error for SQLite result code rc
    void exec(const std::string& sql) const;
    // exec, tried again while SQLite answers BUSY, for up to the busy timeout: for statements whose
    // locks SQLite does not wait for through the busy handler (changing the journal mode answers BUSY at
    // once while another connection opens the same new file).
    void execRetryingWhileBusy(const std::string& sql) const;

    // Runs body inside BEGIN IMMEDIATE ... COMMIT and returns what it returns; rolls back and rethrows on
    // any error. IMMEDIATE takes the write lock up front, so a transaction never fails half-way for it.
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

private:
    void open();
    void rollback() const;
    bool reachesFileSizeLimit() const; // a file of the store is at this process's RLIMIT_FSIZE
    bool diskIsFull() const;           // under 1 MiB free where the store lives

    sqlite3* db_ = nullptr;
    std::string path_;
    int busyTimeoutMs_ = 0;
    bool readOnlyFolder_ = false; // opened immutable: the file is in a folder this process cannot write
};

} // namespace attnlab
