#pragma once
#include <string>

namespace attnlab {

// The user's folders for data the lab keeps (datasets, the run database) and for caches it can rebuild
// (embedding caches), by the XDG base-directory rules: $XDG_DATA_HOME or ~/.local/share, $XDG_CACHE_HOME
// or ~/.cache. An empty variable counts as unset; "" when neither it nor $HOME is set (the caller picks).
class UserFolders {
public:
    static std::string data();
    static std::string cache();
};

} // namespace attnlab
