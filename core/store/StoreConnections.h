#pragma once
#include "core/store/RunQueries.h"
#include "core/store/SqliteConnection.h"

#include <memory>
#include <string>

namespace attnlab {

// The SQLite connections of one RunStore (private to core/store): the one every write and most reads go
// through, configured for the store (WAL, foreign keys, page cache), and a second one, opened on first use,
// for reading a large set of curves in two halves at once (RunStore::curves). Not thread-safe by itself:
// RunStore holds its lock around every use.
class StoreConnections {
public:
    StoreConnections(const std::string& path, int busyTimeoutMs);

    void configure(); // the pragmas every connection of the store runs first
    // The second connection's queries; none for a store that is not a named file (":memory:" would be another,
    // empty database) or on a single core.
    RunQueries* reader();
    // A named file (not ":memory:" or a URI), which can be deleted, moved or replaced under the connection.
    bool onAFile() const;
    // Onto the file at the path now (after it was written back or replaced); the second connection opens
    // again when next needed.
    void reopen();

    SqliteConnection connection;
    RunQueries queries;
    const int busyTimeoutMs;

private:
    std::unique_ptr<SqliteConnection> readerConnection_;
    std::unique_ptr<RunQueries> readerQueries_;
};

} // namespace attnlab
