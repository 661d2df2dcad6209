#include "core/DatasetCatalog.h"

#include "core/Registry.h"
#include "core/SyntheticSentiment.h"

#include <stdexcept>

namespace attnlab {

TextDataset DatasetCatalog::load(const std::string& id, std::uint64_t seed)
{
    if (id == "synthetic-sentiment") {
        SyntheticSentiment::Options options;
        options.seed = seed;
        return SyntheticSentiment::generate(options);
    }
    throw std::invalid_argument("unknown dataset '" + id + "' (known: " + Registry::idList(Registry::datasets()) + ")");
}

} // namespace attnlab
