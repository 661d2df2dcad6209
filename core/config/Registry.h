#pragma once
#include "core/config/RegistryEntry.h"

#include <string>
#include <vector>

namespace attnlab {

// The one list of datasets, models and position techniques; the CLI and the GUI both read it.
class Registry {
public:
    static const std::vector<RegistryEntry>& datasets();
    static const std::vector<RegistryEntry>& models();
    static const std::vector<RegistryEntry>& positions();
    static const RegistryEntry* find(const std::vector<RegistryEntry>& list, const std::string& id);
    static std::string idList(const std::vector<RegistryEntry>& list);
    // The entry's display name ("Relative (RPR)"), or the id itself when the list has no such entry.
    static std::string nameOf(const std::vector<RegistryEntry>& list, const std::string& id);
    // Whether the model has a choice of position technique (the SANs); RNNs, CNN and the time-series
    // baselines take none. Unknown models: true (their position is shown rather than hidden).
    static bool takesPosition(const std::string& model);
    // The position technique a model gets when none is named: "none" for a model that takes none, "rpr" for
    // the self-attention models (the thesis' best for SSAN, Table 5.3, and ESSAN's in chapters 5 and 6).
    static std::string defaultPosition(const std::string& model);
    // The model trained when none is named: "ssan" for sentence classification (the window's first model),
    // "essan" for a time series (the thesis' self-attention regressor).
    static std::string defaultModel(const std::string& datasetId);
    static constexpr const char* kDefaultDataset = "synthetic-sentiment"; // the built-in data, as the window starts
    // "SSAN + Relative (RPR)", "SSAN (no position)", or "LSTM" alone for a model that takes no position technique ("DA-RNN +
    // None" would suggest a choice that does not exist).
    static std::string modelLabel(const std::string& model, const std::string& position);
    // Whether the model's forward pass has attention weights to show (the SANs, the Transformer, the
    // attention RNNs); an LSTM, a CNN or a bag of words has none, so a view says so instead of waiting.
    static bool hasAttention(const std::string& model);
};

} // namespace attnlab
