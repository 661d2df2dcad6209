#include "core/store/StoredJson.h"

namespace attnlab {

nlohmann::json StoredJson::parseOr(const std::string& text, nlohmann::json fallback)
{
    if (text.empty())
        return fallback;
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        return fallback;
    }
}

} // namespace attnlab
