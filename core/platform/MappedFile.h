#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace attnlab {

// A whole file mapped read-only (POSIX mmap, private): its bytes read in place and paged in as they are
// touched, so opening a 90 MB model or an embedding cache copies nothing. The mapping lives with the object.
class MappedFile {
public:
    // Why a file could not be mapped. what() is "<path>: <step>: <reason>"; step() and reason() apart, for a
    // caller that words its own error (a DataError naming the file).
    class Failure : public std::runtime_error {
    public:
        Failure(const std::string& path, const std::string& step, const std::string& reason);
        const std::string& step() const { return step_; }     // "cannot open", "not a regular file", "cannot map"
        const std::string& reason() const { return reason_; } // the system's words; "" for "not a regular file"

    private:
        std::string step_, reason_;
    };

    // Throws Failure. An empty file maps to no bytes: data() nullptr, size() 0.
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const unsigned char* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    const unsigned char* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace attnlab
