#pragma once
#include <string>
#include <vector>

namespace attnlab {

// One tokenised sentence and its class index.
struct TextExample {
    std::vector<std::string> tokens;
    int label = 0;
};

} // namespace attnlab
