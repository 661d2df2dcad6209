#pragma once
// Shared by the run-store suites (tests/core/test_store*.cpp), which reach under RunStore.
#include <sqlite3.h>

#include <stdexcept>
#include <string>

namespace attnlab::testing {

// Raw SQLite, to write files the way other programs (or older versions) do and to look underneath.
class RawDb {
public:
    explicit RawDb(const std::string& path, int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    {
        if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK)
            throw std::runtime_error("raw open failed: " + path);
    }
    ~RawDb() { sqlite3_close(db_); }
    RawDb(const RawDb&) = delete;
    RawDb& operator=(const RawDb&) = delete;
    void exec(const std::string& sql)
    {
        char* error = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            const std::string message = error ? error : "?";
            sqlite3_free(error);
            throw std::runtime_error("raw exec failed: " + message + " in " + sql);
        }
    }
    // The first column of the first row, as text; "" when there is no row or the query fails.
    std::string scalar(const std::string& sql)
    {
        sqlite3_stmt* s = nullptr;
        std::string result;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW &&
            sqlite3_column_text(s, 0))
            result = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        sqlite3_finalize(s);
        return result;
    }

private:
    sqlite3* db_ = nullptr;
};

} // namespace attnlab::testing
