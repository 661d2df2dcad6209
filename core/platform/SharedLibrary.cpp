#include "core/platform/SharedLibrary.h"

#include <dlfcn.h>

#include <stdexcept>

namespace attnlab {

bool SharedLibrary::isolationAvailable()
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return false;
#else
    return true;
#endif
#else
    return true;
#endif
}

SharedLibrary::SharedLibrary(const std::string& path, bool isolated, bool lazy) : path_(path)
{
    if (isolated && !isolationAvailable())
        throw std::runtime_error(path + ": a sanitizer build cannot load it apart from the process's own libraries (RTLD_DEEPBIND)");
    int flags = (lazy ? RTLD_LAZY : RTLD_NOW) | RTLD_LOCAL;
#ifdef RTLD_DEEPBIND
    if (isolated)
        flags |= RTLD_DEEPBIND;
#endif
    handle_ = dlopen(path.c_str(), flags);
    if (!handle_) {
        const char* reason = dlerror();
        throw std::runtime_error(path + ": does not load (" + (reason ? reason : "unknown reason") + ")");
    }
}

SharedLibrary::~SharedLibrary()
{
    if (handle_)
        dlclose(handle_);
}

void* SharedLibrary::symbol(const std::string& name) const
{
    dlerror();
    void* address = dlsym(handle_, name.c_str());
    if (!address)
        throw std::runtime_error(path_ + ": has no symbol " + name);
    return address;
}

void* SharedLibrary::findSymbol(const std::string& name) const { return dlsym(handle_, name.c_str()); }

void* SharedLibrary::processSymbol(const std::string& name) { return dlsym(RTLD_DEFAULT, name.c_str()); }

} // namespace attnlab
