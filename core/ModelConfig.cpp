#include "core/ModelConfig.h"

#include "core/Registry.h"

#include <algorithm>

namespace attnlab {

std::string ModelConfig::validate() const
{
    const RegistryEntry* entry = Registry::find(Registry::models(), model);
    if (!entry)
        return "model: unknown id '" + model + "' (known: " + Registry::idList(Registry::models()) + ")";
    if (!Registry::find(Registry::positions(), position))
        return "position: unknown id '" + position + "' (known: " + Registry::idList(Registry::positions()) + ")";
    if (std::find(entry->positions.begin(), entry->positions.end(), position) == entry->positions.end())
        return "position: '" + position + "' does not apply to model '" + model + "' (it takes: " +
               [&] { std::string s; for (const auto& p : entry->positions) s += (s.empty() ? "" : ", ") + p; return s; }() + ")";
    if (dModel < 1)
        return "d_model: must be at least 1 (got " + std::to_string(dModel) + ")";
    if (layers < 1)
        return "layers: must be at least 1 (got " + std::to_string(layers) + ")";
    if (position == "rpr" && rprClip < 1)
        return "rpr_clip: the clipping distance k must be at least 1 (got " + std::to_string(rprClip) + ")";
    if (ffHidden < 1)
        return "ff_hidden: must be at least 1 (got " + std::to_string(ffHidden) + ")";
    if (!(dropoutKeep > 0.0 && dropoutKeep <= 1.0))
        return "dropout_keep: a keep probability must be in (0, 1] (got " + std::to_string(dropoutKeep) + ")";
    if (numClasses < 2)
        return "classes: a classifier needs at least 2 classes (got " + std::to_string(numClasses) + ")";
    if (vocabularySize < 3)
        return "vocabulary: the dataset gave too few tokens (" + std::to_string(vocabularySize) + ")";
    return {};
}

} // namespace attnlab
