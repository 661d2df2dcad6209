#include "core/store/SqliteStatement.h"

#include "core/store/SqliteConnection.h"

#include <sqlite3.h>

namespace attnlab {

SqliteStatement::SqliteStatement(const SqliteConnection& connection, const std::string& sql) : connection_(connection)
{
    if (const int rc = sqlite3_prepare_v2(connection.handle(), sql.c_str(), -1, &statement_, nullptr); rc != SQLITE_OK)
        connection.fail(rc);
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(statement_);
}

SqliteStatement& SqliteStatement::bind(int index, const std::string& value)
{
    sqlite3_bind_text(statement_, index, value.c_str(), -1, SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value)
{
    sqlite3_bind_int64(statement_, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, int value)
{
    sqlite3_bind_int64(statement_, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value)
{
    sqlite3_bind_double(statement_, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bindNull(int index)
{
    sqlite3_bind_null(statement_, index);
    return *this;
}

SqliteStatement& SqliteStatement::bindTextOrNull(int index, const std::string& value)
{
    return value.empty() ? bindNull(index) : bind(index, value);
}

bool SqliteStatement::step()
{
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    connection_.fail(rc);
}

void SqliteStatement::run()
{
    step();
    reset();
}

void SqliteStatement::reset()
{
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
}

std::string SqliteStatement::text(int column) const
{
    const unsigned char* value = sqlite3_column_text(statement_, column);
    return value ? reinterpret_cast<const char*>(value) : "";
}

std::int64_t SqliteStatement::integer(int column) const
{
    return sqlite3_column_int64(statement_, column);
}

double SqliteStatement::real(int column) const
{
    return sqlite3_column_double(statement_, column);
}

} // namespace attnlab
