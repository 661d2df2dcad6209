#pragma once
#include "core/data/TextExample.h"

#include <string>
#include <vector>

namespace attnlab {

// Checks shared by the readers: a split with no examples is an error naming where it came from (a model
// cannot be evaluated on nothing), and a probe sentence for the attention view is picked from dev.
class DatasetSplitCheck {
public:
    static void requireExamples(const std::vector<TextExample>& split, const std::string& source, const std::string& splitName);
    // The first dev sentence of 8..20 tokens (readable in the heatmap), else the first one.
    static std::vector<std::string> probeFrom(const std::vector<TextExample>& dev);
};

} // namespace attnlab
