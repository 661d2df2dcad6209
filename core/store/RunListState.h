#pragma once
#include <cstdint>

namespace attnlab {

// The run list summed up in index reads only (runs_by_status and the rowid): how many runs, the newest id, and
// which are still running. A reader that keeps the store open (the window) reads it every few seconds and lists
// the runs again only when it differs, so runs that another process adds, finishes or deletes (a sweep started
// in a terminal into the window's database) appear without Refresh, and a store of 10,000 runs is not listed
// again for nothing. Renames, tags and notes made elsewhere are not in it: Refresh (F5) shows those.
struct RunListState {
    std::int64_t runs = 0;
    std::int64_t newestId = 0;
    std::int64_t running = 0;      // runs whose status is "running"
    std::int64_t runningIdSum = 0; // their ids added up: one run ending as another starts still changes it

    bool operator==(const RunListState& o) const
    {
        return runs == o.runs && newestId == o.newestId && running == o.running && runningIdSum == o.runningIdSum;
    }
    bool operator!=(const RunListState& o) const { return !(*this == o); }
};

} // namespace attnlab
