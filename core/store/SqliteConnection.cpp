#include "core/store/SqliteConnection.h"
#include "core/store/StoreLockedError.h"
#include "core/platform/DiskSpace.h"
#include "core/platform/FileInfo.h"

#include <sqlite3.h>


#include <cerrno>
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
    open();
}

namespace {

// A database file in a folder this process cannot write (a read-only share of someone's runs): a WAL
// database then cannot be read either, for SQLite cannot create the -wal and -shm files beside it. Only
// when there is no -wal file: one left there holds rows that an immutable open would not see.
bool inReadOnlyFolder(const std::string& path)
{
    std::error_code error;
    if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0 ||
        !std::filesystem::is_regular_file(path, error) || std::filesystem::exists(path + "-wal", error))
        return false;
    const auto folder = std::filesystem::absolute(path, error).parent_path();
    return !error && FileInfo::folderRefusesWrites(folder.string());
}

// An absolute path as an SQLite URI ("file:" + path, with the characters a URI gives meaning to escaped).
std::string fileUri(const std::string& path)
{
    std::error_code error;
    const std::string absolute = std::filesystem::absolute(path, error).string();
    std::string uri = "file:";
    for (const char c : absolute) {
        if (c == '%' || c == '?' || c == '#') {
            static const char* hex = "0123456789ABCDEF";
            uri += '%';
            uri += hex[(static_cast<unsigned char>(c) >> 4) & 0xf];
            uri += hex[static_cast<unsigned char>(c) & 0xf];
        } else {
            uri += c;
        }
    }
    return uri;
}

} // namespace

void SqliteConnection::open()
{
    // In a read-only folder, opened immutable (read-only, no locks: nobody can change a file there
    // through this folder either), so the runs can still be listed, compared and exported; a write says why
    // it cannot be done (fail()).
    readOnlyFolder_ = inReadOnlyFolder(path_);
    const std::string name = readOnlyFolder_ ? fileUri(path_) + "?immutable=1" : path_;
    const int flags = readOnlyFolder_ ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX
                                      : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
    if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
        std::string message = db_ ? sqlite3_errmsg(db_) : "cannot allocate";
        sqlite3_close(db_);
        db_ = nullptr;
        throw std::runtime_error("run store " + path_ + ": cannot open: " + message);
    }
    sqlite3_busy_timeout(db_, busyTimeoutMs_);
}

void SqliteConnection::reopen()
{
    sqlite3_close(db_);
    db_ = nullptr;
    open();
}

bool SqliteConnection::hasMoved() const
{
    int moved = 0;
    return sqlite3_file_control(db_, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0;
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
    const int extended = db_ ? sqlite3_extended_errcode(db_) : rc;
    const int systemError = db_ ? sqlite3_system_errno(db_) : 0;
    std::string message;
    // Writing failed for want of room: SQLite says FULL for ENOSPC, but a plain I/O error for a file-size
    // limit (EFBIG), and the errno it keeps is often another call's by now, so the files are looked at too.
    const bool ioError = (rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_IOERR;
    const bool overLimit = ioError && (systemError == EFBIG || reachesFileSizeLimit());
    const bool diskFull = ioError && !overLimit &&
                          ((rc & 0xff) == SQLITE_FULL || systemError == ENOSPC || systemError == EDQUOT || diskIsFull());
    if (overLimit || diskFull) {
        const std::string why = overLimit               ? "the file size limit of this process was reached (ulimit -f)"
                                : systemError == EDQUOT ? "the disk quota is used up"
                                                        : "the disk is full";
        message = "cannot write: " + why + " (" + detail + "); free space or raise the limit and train again; the runs "
                  "stored before are intact";
        throw std::runtime_error("run store " + path_ + ": " + message);
    }
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        message = "the database is locked by another process (still busy after " + std::to_string(busyTimeoutMs_) +
                  " ms); close the other program using it (another Attention Lab or an sqlite3 shell) and try "
                  "again (" + detail + ")";
        throw StoreLockedError("run store " + path_ + ": " + message);
    case SQLITE_NOTADB:
        message = "not an Attention Lab run database (" + detail + ")";
        break;
    case SQLITE_CORRUPT:
        message = "the run database is damaged (" + detail + "); restore a backup or use a new file";
        break;
    case SQLITE_READONLY:
        if (readOnlyFolder_) {
            std::error_code error;
            message = "the folder " + std::filesystem::absolute(path_, error).parent_path().string() +
                      " is read-only, and SQLite must create the database's -wal and -shm files beside it, so no "
                      "run can be stored in it (" + detail + "); make the folder writable, or copy the database "
                      "to a folder you can write and give that (--db, File > Open run database)";
            break;
        }
        message = extended == SQLITE_READONLY_DBMOVED
                      ? "the database file was deleted or moved while open (" + detail + ")"
                      : "the database file is read-only, so no run can be stored in it (" + detail +
                            "); make it writable, or give another file (--db, File > Open run database)";
        break;
    default:
        message = detail;
    }
    throw std::runtime_error("run store " + path_ + ": " + message);
}

bool SqliteConnection::reachesFileSizeLimit() const
{
    const auto limit = DiskSpace::fileSizeLimit();
    if (!limit)
        return false;
    // A write that failed went past the limit: one of the files is within a page or two of it.
    const std::uintmax_t margin = 2 * 65536;
    for (const char* suffix : {"", "-wal", "-journal"}) {
        std::error_code error;
        const std::uintmax_t size = std::filesystem::file_size(path_ + suffix, error);
        if (!error && size + margin >= static_cast<std::uintmax_t>(*limit))
            return true;
    }
    return false;
}

bool SqliteConnection::diskIsFull() const
{
    std::error_code error;
    const auto space = std::filesystem::space(std::filesystem::absolute(path_, error).parent_path(), error);
    return !error && space.available < 1024 * 1024;
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
