#pragma once
#include <string>

namespace attnlab {

// A shared library loaded at run time (dlopen), closed with the object. `isolated`: its own symbols and its
// dependencies' come before the process's (RTLD_DEEPBIND) and none of them become the process's (RTLD_LOCAL) —
// for a library that carries a copy of something the process already has another version of (SentencePiece's
// protobuf-lite 3.14 beside Debian LibTorch's libprotobuf 3.21). Sanitizer runtimes refuse RTLD_DEEPBIND:
// isolationAvailable() says whether this build can.
class SharedLibrary {
public:
    // Throws std::runtime_error naming the path and the loader's reason. `lazy`: functions are bound when
    // first called, not all at load (a driver library whose every export need not resolve here).
    SharedLibrary(const std::string& path, bool isolated, bool lazy = false);
    ~SharedLibrary();
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    // The address of an exported symbol; throws std::runtime_error naming it and the library when absent.
    void* symbol(const std::string& name) const;
    void* findSymbol(const std::string& name) const; // nullptr when absent: for optional entry points
    const std::string& path() const { return path_; }

    static bool isolationAvailable();
    // The address of a symbol some library already loaded into the process exports (dlsym(RTLD_DEFAULT)), or
    // nullptr: what the process's own dependencies offer, without loading anything.
    static void* processSymbol(const std::string& name);

private:
    void* handle_ = nullptr;
    std::string path_;
};

} // namespace attnlab
