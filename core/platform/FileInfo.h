#pragma once
#include <cstdint>
#include <string>

namespace attnlab {

// What the system says of a path, links followed (POSIX stat): whether it is there, a file or a folder, its
// size and modification time to the nanosecond (an unchanged file's remembered hash is keyed on them).
// Never throws: a path that cannot be examined is not there, with the system's reason in error().
class FileInfo {
public:
    static FileInfo of(const std::string& path);

    bool exists() const { return exists_; }
    bool isRegular() const { return regular_; }
    bool isDirectory() const { return directory_; }
    std::int64_t size() const { return size_; }
    std::int64_t modifiedSeconds() const { return modifiedSeconds_; }         // since 1970-01-01 UTC
    std::int64_t modifiedNanoseconds() const { return modifiedNanoseconds_; } // within that second
    const std::string& error() const { return error_; }                       // "" when it exists

    // True when this process may not create files in the folder: no write permission, a read-only file
    // system, or refused by policy. False when it may, or when the check itself failed otherwise.
    static bool folderRefusesWrites(const std::string& folder);

private:
    bool exists_ = false, regular_ = false, directory_ = false;
    std::int64_t size_ = 0, modifiedSeconds_ = 0, modifiedNanoseconds_ = 0;
    std::string error_;
};

} // namespace attnlab
