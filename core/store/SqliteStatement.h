#pragma once
#include <cstdint>
#include <string>

struct sqlite3_stmt;

namespace attnlab {

class SqliteConnection;

// A prepared statement of the run store (private to core/store) that finalises itself. Errors go through
// the connection, so they name the file and read the same as every other store error.
class SqliteStatement {
public:
    SqliteStatement(const SqliteConnection& connection, const std::string& sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Parameters count from 1; each returns *this so a row's values chain.
    SqliteStatement& bind(int index, const std::string& value);
    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, int value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bindNull(int index);
    SqliteStatement& bindTextOrNull(int index, const std::string& value); // "" becomes NULL

    bool step();  // true while there is a row to read; throws on an error
    void run();   // one step, then reset: for a statement executed once per row of a batch
    void reset(); // ready to run again, bindings cleared

    // Columns count from 0; NULL reads as "" and 0.
    std::string text(int column) const;
    std::int64_t integer(int column) const;
    double real(int column) const;

private:
    const SqliteConnection& connection_;
    sqlite3_stmt* statement_ = nullptr;
};

} // namespace attnlab
