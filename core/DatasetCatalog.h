#pragma once
#include "core/TextDataset.h"

#include <cstdint>
#include <string>

namespace attnlab {

// Loads a dataset by registry id. Unknown ids throw std::invalid_argument listing the known ones.
class DatasetCatalog {
public:
    static TextDataset load(const std::string& id, std::uint64_t seed = 7);
};

} // namespace attnlab
