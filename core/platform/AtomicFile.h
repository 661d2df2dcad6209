#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <system_error> // what its errors are

namespace attnlab {

// A file written whole or not at all: into a hidden temporary file beside the target
// ("<folder>/.<name>.part-XXXXXX", created exclusively), synced to the disk, then renamed over the target and
// the folder synced too. rename() within one folder is atomic, so a reader sees the old file, or none, or the
// whole new one; on any failure (the object destroyed before commit(), a write, sync or rename refused) the
// temporary file is removed and the target is as it was. The one place for it: checkpoints, sweep files, the
// embedding caches, installed datasets, exports and tables. Errors are std::system_error, their
// text naming the target, the step and the system's reason.
class AtomicFile {
public:
    // Creates the target's folder when missing, and the temporary file.
    explicit AtomicFile(std::string target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(const void* data, std::size_t bytes);
    void write(std::string_view text) { write(text.data(), text.size()); }
    // Syncs and closes the temporary file, renames it over the target (mode 0644), syncs the folder.
    void commit();

    const std::string& target() const { return target_; }
    // The temporary file's path, for writers that open files by name themselves (writeThrough).
    const std::string& temporaryPath() const { return temporary_; }

    // The whole content at once.
    static void replace(const std::string& target, std::string_view content);
    // For a writer that takes a path (LibTorch's archives): it writes the temporary file by name; then commit.
    static void writeThrough(const std::string& target, const std::function<void(const std::string& path)>& writer);

private:
    std::string target_, temporary_;
    int fd_ = -1;
    bool committed_ = false;
};

} // namespace attnlab
