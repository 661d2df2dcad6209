#include "core/platform/DiskSpace.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace attnlab {

std::optional<std::uint64_t> DiskSpace::fileSizeLimit()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_FSIZE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::nullopt;
    return static_cast<std::uint64_t>(limit.rlim_cur);
}

bool DiskSpace::allocate(const std::string& path, std::int64_t bytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    const bool allocated = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes)) == 0;
    ::close(fd);
    if (!allocated)
        ::unlink(path.c_str());
    return allocated;
}

} // namespace attnlab
