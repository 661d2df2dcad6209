#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace attnlab {

// Room on the disk and the limit on a file's size (POSIX posix_fallocate, getrlimit): a run database keeps a
// little room beside it to record a run's end when the disk fills, and names the file-size limit when a
// write went past it.
class DiskSpace {
public:
    // This process' file-size limit in bytes (RLIMIT_FSIZE, soft); nothing when unlimited or unknown.
    static std::optional<std::uint64_t> fileSizeLimit();
    // Creates (or truncates) path with bytes allocated on the disk, not a sparse file (removing it would free
    // nothing), readable by this user only. False, and no file left, when it cannot.
    static bool allocate(const std::string& path, std::int64_t bytes);
};

} // namespace attnlab
