#pragma once
#include "core/config/DatasetOptions.h"
#include "core/config/TrainConfig.h"
#include "core/config/ModelConfig.h"
#include "core/data/LoadedDataset.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

class CliFlags;

// The model and dataset flags that describe, stats and train share, and their translation into the
// engine's ModelConfig and DatasetOptions: written once, so the three commands accept the same flags
// with the same meaning (the usage text's "model options" and "dataset options"), and refuse the same
// settings. Throws CliUsageError.
class ConfigFlags {
public:
    // --dataset, --model, --position and the model options, each taking a value.
    static const std::set<std::string>& modelFlags();
    // The dataset options taking a value (docs/DATASETS.md) ...
    static const std::set<std::string>& datasetFlags();
    // ... and those that are switches (--phrases, --lowercase, --order-dependent).
    static const std::set<std::string>& datasetSwitches();

    static DatasetOptions datasetOptions(const CliFlags& flags);
    // The data flags given, written into the config's dataset keys (over a preset's or config file's).
    static void applyDataFlags(const CliFlags& flags, TrainConfig& config);
    // Without a base, what --model and --position do not say is left "" (fillDefaults chooses); with one (a
    // preset or config file), every flag given overrides the base's value.
    static ModelConfig modelConfig(const CliFlags& flags, const ModelConfig* base = nullptr);
    // Unknown ids are usage errors that list the known ones.
    // What the user left out: the dataset (the built-in synthetic-sentiment), the model (Registry::defaultModel
    // of the dataset) and the position technique (Registry::defaultPosition of the model).
    static void fillDefaults(std::string& dataset, ModelConfig& model);
    static void checkIds(const std::string& dataset, const std::string& model, const std::string& position);
    // The one mapping of command-line flags to the configuration keys they set ({"--lr", "learning_rate"}, ...).
    static const std::vector<std::pair<std::string, std::string>>& flagKeys();
    // An engine message that starts with a key ("learning_rate: must be ...") in the user's words: the flag
    // when the value came from one ("--lr: must be ..."), else the key as the JSON config or preset wrote it.
    static std::string inFlagTerms(const std::string& problem, const CliFlags& flags);
    static void checkDataset(const std::string& dataset);
    // The model completed with what the dataset decides (its classes and vocabulary, or the series'
    // drivers and window) and checked: a setting that cannot work is a usage error before anything runs.
    static ModelConfig modelFor(const ModelConfig& model, const LoadedDataset& data);
};

} // namespace attnlab
