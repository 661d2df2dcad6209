#pragma once
#include <string>

namespace attnlab {

// Which runs RunStore::listRuns returns and in what order. Empty strings match anything.
struct RunFilter {
    enum class SortBy { Started, TestAccuracy, BestDev, Name };

    std::string dataset;
    std::string model;
    std::string position;
    std::string status;  // e.g. "completed"
    std::string tag;     // runs carrying this tag
    std::string text;    // case-insensitive substring of the name or the notes
    SortBy sortBy = SortBy::Started;
    bool descending = true;
    int limit = 0;       // 0 = no limit
};

} // namespace attnlab
