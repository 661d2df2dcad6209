#pragma once
#include <stdexcept>

namespace attnlab {

// The run store's file stayed locked by another process for longer than the busy timeout. Unlike a full
// disk or a read-only file this passes by itself, so a run's writer (StoreObserver) keeps its rows and
// tries again instead of ending the run. The message names the file and says what to do.
class StoreLockedError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace attnlab
