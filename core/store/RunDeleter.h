#pragma once
#include "core/results/RunRecord.h"

#include <cstdint>
#include <vector>

namespace attnlab {

class SqliteConnection;

// RunStore::deleteRuns (private to core/store): the runs' rows in every table, in one transaction, counted
// for the user, then their checkpoint files that no remaining run names. A running run is refused (nothing is
// deleted). Takes no lock: RunStore holds its own around the call.
class RunDeleter {
public:
    explicit RunDeleter(const SqliteConnection& connection);
    RunDeletion remove(const std::vector<std::int64_t>& runIds) const;

private:
    const SqliteConnection& connection_;
};

} // namespace attnlab
