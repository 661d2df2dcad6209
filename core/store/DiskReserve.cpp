#include "core/store/DiskReserve.h"

#include "core/platform/DiskSpace.h"

#include <filesystem>
#include <system_error>

namespace attnlab {

DiskReserve::~DiskReserve() { release(); }

void DiskReserve::take(const std::string& databasePath)
{
    release();
    if (databasePath.empty() || databasePath == ":memory:" || databasePath.rfind("file:", 0) == 0)
        return;
    if (const auto limit = DiskSpace::fileSizeLimit(); limit && *limit < std::uint64_t(kBytes))
        return; // allocating past the file-size limit would raise SIGXFSZ
    const std::string path = databasePath + "-reserve";
    if (!DiskSpace::allocate(path, kBytes)) // its blocks allocated: a sparse file would free nothing when removed
        return;
    path_ = path;
}

void DiskReserve::release()
{
    if (path_.empty())
        return;
    std::error_code ignored; // already gone is as good
    std::filesystem::remove(path_, ignored);
    path_.clear();
}

} // namespace attnlab
