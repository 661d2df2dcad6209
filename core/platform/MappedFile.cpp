#include "core/platform/MappedFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnlab {

MappedFile::Failure::Failure(const std::string& path, const std::string& step, const std::string& reason)
    : std::runtime_error(path + ": " + step + (reason.empty() ? "" : ": " + reason)), step_(step), reason_(reason)
{
}

MappedFile::MappedFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw Failure(path, "cannot open", std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw Failure(path, "not a regular file", "");
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ == 0) { // mmap refuses a length of 0
        ::close(fd);
        return;
    }
    void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    const int mapError = errno;
    ::close(fd); // the mapping keeps the file's pages; the descriptor is no longer needed
    if (map == MAP_FAILED)
        throw Failure(path, "cannot map", std::strerror(mapError));
    data_ = static_cast<const unsigned char*>(map);
}

MappedFile::~MappedFile()
{
    if (data_)
        ::munmap(const_cast<unsigned char*>(data_), size_);
}

} // namespace attnlab
