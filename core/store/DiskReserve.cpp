#include "core/store/DiskReserve.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace attnlab {

DiskReserve::~DiskReserve() { release(); }

void DiskReserve::take(const std::string& databasePath)
{
    release();
    if (databasePath.empty() || databasePath == ":memory:" || databasePath.rfind("file:", 0) == 0)
        return;
    rlimit limit{};
    if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        limit.rlim_cur < rlim_t(kBytes))
        return; // allocating past the file-size limit would raise SIGXFSZ
    const std::string path = databasePath + "-reserve";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    // posix_fallocate allocates the blocks (a sparse file would free nothing when removed).
    const bool allocated = ::posix_fallocate(fd, 0, kBytes) == 0;
    ::close(fd);
    if (!allocated) {
        ::unlink(path.c_str());
        return;
    }
    path_ = path;
}

void DiskReserve::release()
{
    if (path_.empty())
        return;
    ::unlink(path_.c_str());
    path_.clear();
}

} // namespace attnlab
