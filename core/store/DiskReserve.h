#pragma once
#include <cstdint>
#include <string>

namespace attnlab {

// Room kept on the disk beside a run database while a run writes to it, given back when a write fails, so
// the run's end (failed, with the reason) can still be written when the disk filled up under it. SQLite
// needs a few free pages for that last update; on a disk full to the byte there are none, and whether the
// failed batch had left any behind in the WAL was chance (the run stayed "running", then "interrupted").
// A plain file allocated with posix_fallocate, named <database>-reserve: best effort, nothing if it cannot
// be made (a file-size limit, a read-only folder: those faults need no room to report).
class DiskReserve {
public:
    static constexpr std::int64_t kBytes = 128 * 1024; // the WAL frames and -shm growth of one small update

    DiskReserve() = default;
    ~DiskReserve();
    DiskReserve(const DiskReserve&) = delete;
    DiskReserve& operator=(const DiskReserve&) = delete;

    void take(const std::string& databasePath); // keeps kBytes beside the file (gives back any earlier)
    void release();                             // the room is free again; safe to call twice
    bool held() const { return !path_.empty(); }

private:
    std::string path_;
};

} // namespace attnlab
