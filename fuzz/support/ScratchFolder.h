#pragma once
#include <string>

namespace attnlab::fuzz {

// A private temporary folder for one fuzzing process, removed at exit. Readers that take a path (the app
// reads files, not strings) get the fuzzed bytes written here first, so a harness calls exactly what the
// app calls on a user's file.
class ScratchFolder {
public:
    static ScratchFolder& instance();
    const std::string& path() const { return path_; }
    // Writes `bytes` to path()/relative (creating folders) and returns the full path.
    std::string write(const std::string& relative, const std::string& bytes) const;
    std::string file(const std::string& relative) const { return path_ + "/" + relative; }
    // Removes everything inside (the folder itself stays).
    void clear() const;

    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

private:
    ScratchFolder();
    std::string path_;
};

} // namespace attnlab::fuzz
