#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace attnlab {

// The store keeps JSON as text (config, tags, environment, summary, attention snapshots). Reading one
// back must not fail on a text this build cannot parse (empty, written by another tool, damaged), so the
// caller names what stands in for it. Private to core/store.
class StoredJson {
public:
    static nlohmann::json parseOr(const std::string& text, nlohmann::json fallback); // "" or not JSON: fallback
};

} // namespace attnlab
