#include "core/store/StoreConnections.h"

#include <thread>

namespace attnlab {

StoreConnections::StoreConnections(const std::string& path, int busyTimeoutMs)
    : connection(path, busyTimeoutMs), queries(connection), busyTimeoutMs(busyTimeoutMs)
{
}

void StoreConnections::configure()
{
    const SqliteConnection& c = connection;
    c.exec("PRAGMA foreign_keys = ON");
    c.execRetryingWhileBusy("PRAGMA journal_mode = WAL"); // see there: no busy handler for it
    c.exec("PRAGMA synchronous = NORMAL");
    // Listing 10,000 runs reads ~15 MB of rows; a 32 MiB page cache (2 MiB by default) keeps a refresh of an
    // unchanged store from reading them again through the file. (Memory-mapped reads were tried and cost more
    // on a connection's first listing than they saved.)
    c.exec("PRAGMA cache_size = -32768");
}

RunQueries* StoreConnections::reader()
{
    if (!onAFile() || std::thread::hardware_concurrency() < 2)
        return nullptr;
    if (!readerConnection_) {
        readerConnection_ = std::make_unique<SqliteConnection>(connection.path(), busyTimeoutMs);
        readerQueries_ = std::make_unique<RunQueries>(*readerConnection_);
    }
    return readerQueries_.get();
}

bool StoreConnections::onAFile() const
{
    const std::string& path = connection.path();
    return !path.empty() && path != ":memory:" && path.rfind("file:", 0) != 0;
}

void StoreConnections::reopen()
{
    readerQueries_.reset();
    readerConnection_.reset();
    connection.reopen();
    configure();
}

} // namespace attnlab
