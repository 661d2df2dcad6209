#pragma once
#include <cstdint>
#include <vector>

namespace attnlab {

// A padded batch in row-major [batchSize x maxLength] layout; mask is 1 for real tokens, 0 for padding.
struct Batch {
    std::int64_t batchSize = 0;
    std::int64_t maxLength = 0;
    std::vector<std::int64_t> tokenIds;
    std::vector<std::uint8_t> mask;
    std::vector<std::int64_t> lengths;
    std::vector<std::int64_t> labels;
};

} // namespace attnlab
