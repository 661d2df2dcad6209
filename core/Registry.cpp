#include "core/Registry.h"

namespace attnlab {

const std::vector<RegistryEntry>& Registry::datasets()
{
    static const std::vector<RegistryEntry> list = {
        {"synthetic-sentiment", "Synthetic sentiment",
         "Built-in 5-class opinions with negation, intensifiers and contrast ('good but boring'); no download", {}},
    };
    return list;
}

const std::vector<RegistryEntry>& Registry::models()
{
    static const std::vector<RegistryEntry> list = {
        {"ssan", "SSAN", "Simple self-attention network (thesis Fig. 4.1): FF for Q,K,V, attention, FF, mean, FF, softmax",
         {"none", "rpr"}},
        {"lstm", "LSTM", "LSTM baseline (Barnes et al. 2017): LSTM, last state, 50-d ReLU layer, softmax", {"none"}},
    };
    return list;
}

const std::vector<RegistryEntry>& Registry::positions()
{
    static const std::vector<RegistryEntry> list = {
        {"none", "None", "No position information: self-attention then sees a bag of words", {}},
        {"rpr", "Relative (RPR)", "Relative position representations (Shaw et al. 2018) on keys and values, clipped at k", {}},
    };
    return list;
}

const RegistryEntry* Registry::find(const std::vector<RegistryEntry>& list, const std::string& id)
{
    for (const auto& entry : list)
        if (entry.id == id)
            return &entry;
    return nullptr;
}

std::string Registry::idList(const std::vector<RegistryEntry>& list)
{
    std::string ids;
    for (const auto& entry : list)
        ids += (ids.empty() ? "" : ", ") + entry.id;
    return ids;
}

} // namespace attnlab
