#pragma once
#include "core/config/ModelSpec.h"
#include "core/config/RegistryEntry.h"

#include <string>
#include <vector>

namespace attnlab {

// The one list of datasets, models and position techniques; the CLI and the GUI both read it. Everything
// a model is and can do is its ModelSpec here: code asks the entry (model(id)->can.attention,
// servesTask, hasOption), never compares ids.
class Registry {
public:
    static const std::vector<RegistryEntry>& datasets();
    static const std::vector<ModelSpec>& models();
    static const std::vector<RegistryEntry>& positions();
    static const RegistryEntry* find(const std::vector<RegistryEntry>& list, const std::string& id);
    static const ModelSpec* find(const std::vector<ModelSpec>& list, const std::string& id);
    static const ModelSpec* model(const std::string& id) { return find(models(), id); }
    static const RegistryEntry* dataset(const std::string& id) { return find(datasets(), id); }
    static std::string idList(const std::vector<RegistryEntry>& list);
    static std::string idList(const std::vector<ModelSpec>& list);
    // The entry's display name ("Relative (RPR)"), or the id itself when the list has no such entry.
    static std::string nameOf(const std::vector<RegistryEntry>& list, const std::string& id);
    static std::string nameOf(const std::vector<ModelSpec>& list, const std::string& id);
    // What a dataset's examples ask of a model; an id the registry does not list is a classification set
    // (the user's own files are listed, so this is only a guess for a mistyped id, which loading refuses).
    static TaskKind taskOf(const std::string& datasetId);
    // "ssan, essan, transformer": the models that train on this task, or that list this option.
    static std::string modelsFor(TaskKind task);
    static std::string modelsWithOption(const std::string& option);
    // Empty when the model trains on the dataset's task, else a message naming both kinds, so a run is
    // refused before anything is stored ("model: 'gpt' is a language-model model; dataset ... is ...").
    static std::string taskProblem(const std::string& model, const std::string& datasetId);
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
    // Whether the model's forward pass has attention weights to show (ModelAbilities::attention); false for
    // an id the registry does not list.
    static bool hasAttention(const std::string& model);
};

} // namespace attnlab
