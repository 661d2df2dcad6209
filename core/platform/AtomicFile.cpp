#include "core/platform/AtomicFile.h"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnlab {
namespace {

[[noreturn]] void fail(const std::string& target, const std::string& step, int error)
{
    throw std::system_error(error, std::generic_category(), target + ": " + step);
}

// The folder's entry for the renamed file reaches the disk too (rename alone can be lost in a crash).
void syncFolder(const std::string& folder)
{
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return; // a folder we may not open for reading: the file itself is synced
    ::fsync(fd);
    ::close(fd);
}

} // namespace

AtomicFile::AtomicFile(std::string target) : target_(std::move(target))
{
    namespace fs = std::filesystem;
    const fs::path path(target_);
    const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec)
        fail(target_, "cannot create the folder " + folder.string(), ec.value());
    std::string pattern = (folder / ("." + path.filename().string() + ".part-XXXXXX")).string();
    fd_ = ::mkostemp(pattern.data(), O_CLOEXEC);
    if (fd_ < 0)
        fail(target_, "cannot create a temporary file in " + folder.string(), errno);
    temporary_ = pattern;
}

AtomicFile::~AtomicFile()
{
    if (fd_ >= 0)
        ::close(fd_);
    if (!committed_)
        ::unlink(temporary_.c_str());
}

void AtomicFile::write(const void* data, std::size_t bytes)
{
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(fd_, p, bytes);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail(target_, "cannot write " + temporary_, errno);
        }
        p += n;
        bytes -= static_cast<std::size_t>(n);
    }
}

void AtomicFile::commit()
{
    const bool finished = ::fsync(fd_) == 0 && ::fchmod(fd_, 0644) == 0;
    const int error = errno;
    const bool closed = ::close(fd_) == 0;
    fd_ = -1;
    if (!finished || !closed)
        fail(target_, "cannot finish writing " + temporary_, finished ? errno : error);
    if (::rename(temporary_.c_str(), target_.c_str()) != 0)
        fail(target_, "cannot move " + temporary_ + " into place", errno);
    committed_ = true;
    const std::filesystem::path path(target_);
    syncFolder(path.has_parent_path() ? path.parent_path().string() : ".");
}

void AtomicFile::replace(const std::string& target, std::string_view content)
{
    AtomicFile file(target);
    file.write(content);
    file.commit();
}

void AtomicFile::writeThrough(const std::string& target, const std::function<void(const std::string& path)>& writer)
{
    AtomicFile file(target);
    writer(file.temporaryPath()); // writes the (still open, empty) temporary file by its name
    file.commit();                // fsync through our descriptor: the same file
}

} // namespace attnlab
