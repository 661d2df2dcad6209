#include "core/store/SqliteConnection.h"

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>

namespace attnlab {

SqliteConnection::SqliteConnection(const std::string& path, int busyTimeoutMs)
    : path_(path), busyTimeoutMs_(busyTimeoutMs)
{
    const auto parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec); // a failure shows as "cannot open" below
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
        std::string message = db_ ? sqlite3_errmsg(db_) : "cannot allocate";
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error("run store " + path + ": cannot open: " + message);
    }
    sqlite3_busy_timeout(db_, busyTimeoutMs);
}

SqliteConnection::~SqliteConnection()
{
    if (db_)
        sqlite3_close(db_);
}

std::int64_t SqliteConnection::lastInsertId() const
{
    return sqlite3_last_insert_rowid(db_);
}

int SqliteConnection::changes() const
{
    return sqlite3_changes(db_);
}

void SqliteConnection::fail(int rc) const
{
    const std::string detail = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    std::string message;
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        message = "the database is locked by another process (still busy after " + std::to_string(busyTimeoutMs_) +
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
    throw std::runtime_error("run store " + path_ + ": " + message);
}

void SqliteConnection::exec(const std::string& sql) const
{
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK)
        fail(rc);
}

void SqliteConnection::execRetryingWhileBusy(const std::string& sql) const
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busyTimeoutMs_);
    for (;;) {
        const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK)
            return;
        if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline)
            fail(rc);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

void SqliteConnection::rollback() const
{
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

} // namespace attnlab
