#pragma once
#include <string>

namespace attnlab {

// What a new run is stamped with when the store creates its row: a random 128-bit uuid (what the
// de-duplicating import matches runs by) and the UTC time as ISO 8601 ("2026-11-25T01:02:03Z").
class RunStamp {
public:
    static std::string randomUuid(); // 32 lowercase hex digits
    static std::string nowIso();
};

} // namespace attnlab
