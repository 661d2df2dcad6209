#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

struct sqlite3;

namespace attnlab {

// One open SQLite connection of the run store (private to core/store) and the words for its failures:
// every error names the file ("run store FILE: ..."), and the two a user can act on (another process
// holds the lock; the file is not a run store or is damaged) say so plainly. Not thread-safe by itself:
// RunStore serialises its calls.
class SqliteConnection {
public:
    // Opens the file read-write, creating it (and its folder) when missing; throws std::runtime_error.
    SqliteConnection(const std::string& path, int busyTimeoutMs);
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    const std::string& path() const { return path_; }
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
    void rollback() const;

    sqlite3* db_ = nullptr;
    std::string path_;
    int busyTimeoutMs_ = 0;
};

} // namespace attnlab
