#pragma once
#include "core/config/DatasetOptions.h"
#include "core/data/LoadedDataset.h"
#include "core/data/SeriesDataset.h"
#include "core/data/TextDataset.h"
#include "core/data/TranslationDataset.h"

#include <cstdint>
#include <string>

namespace attnlab {

// Loads a dataset by registry id: the one entry point for the CLI, the GUI and the trainer. Unknown ids
// throw std::invalid_argument listing the known ones; bad data throws DataError naming file and line;
// real data is found through DataLocator (options.dataDir, $ATTNLAB_DATA_DIR, the user's data folder).
class DatasetCatalog {
public:
    static TextDataset load(const std::string& id, std::uint64_t seed = 7);
    static TextDataset load(const std::string& id, const DatasetOptions& options);          // classification ids
    static SeriesDataset loadSeries(const std::string& id, const DatasetOptions& options);  // regression ids
    static TranslationDataset loadTranslation(const std::string& id, const DatasetOptions& options); // translation ids
    static LanguageModelDataset loadLanguageModel(const std::string& id, const DatasetOptions& options); // language-model ids
    // Any task: the one call for "the data of this run" (the CLI's train and stats, the GUI's worker
    // and its statistics all load through it).
    static LoadedDataset loadAny(const std::string& id, const DatasetOptions& options);
    static bool isRegression(const std::string& id);
    static bool isTranslation(const std::string& id);
    static bool isLanguageModel(const std::string& id);
    // Folder of a real dataset relative to the data folder ("sentiment/sst"); "" for generated or user files.
    static std::string dataFolder(const std::string& id);

private:
    static TextDataset read(const std::string& id, const DatasetOptions& options); // load without the tokenizer facts
};

} // namespace attnlab
