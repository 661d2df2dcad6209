#include "core/platform/FileInfo.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace attnlab {

FileInfo FileInfo::of(const std::string& path)
{
    FileInfo info;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        info.error_ = std::strerror(errno);
        return info;
    }
    info.exists_ = true;
    info.regular_ = S_ISREG(st.st_mode);
    info.directory_ = S_ISDIR(st.st_mode);
    info.size_ = static_cast<std::int64_t>(st.st_size);
    info.modifiedSeconds_ = static_cast<std::int64_t>(st.st_mtim.tv_sec);
    info.modifiedNanoseconds_ = static_cast<std::int64_t>(st.st_mtim.tv_nsec);
    return info;
}

bool FileInfo::folderRefusesWrites(const std::string& folder)
{
    return access(folder.c_str(), W_OK) != 0 && (errno == EACCES || errno == EROFS || errno == EPERM);
}

} // namespace attnlab
