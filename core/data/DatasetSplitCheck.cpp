#include "core/data/DatasetSplitCheck.h"

#include "core/data/DataError.h"

namespace attnlab {

void DatasetSplitCheck::requireExamples(const std::vector<TextExample>& split, const std::string& source,
                                        const std::string& splitName)
{
    if (split.empty())
        throw DataError(source, 0, "the " + splitName + " split is empty (no examples)");
}

std::vector<std::string> DatasetSplitCheck::probeFrom(const std::vector<TextExample>& dev)
{
    for (const auto& e : dev)
        if (e.tokens.size() >= 8 && e.tokens.size() <= 20)
            return e.tokens;
    return dev.empty() ? std::vector<std::string>{} : dev.front().tokens;
}

} // namespace attnlab
