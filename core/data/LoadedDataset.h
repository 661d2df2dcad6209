#pragma once
#include "core/data/LanguageModelDataset.h"
#include "core/data/SeriesDataset.h"
#include "core/data/TextDataset.h"
#include "core/data/TranslationDataset.h"

namespace attnlab {

// A dataset of any task, as DatasetCatalog::loadAny returns it: text for classification ids, series
// (windows) for regression ids, sentence pairs for translation ids,
// token streams for language-model ids. Only the one its flags name is filled in.
struct LoadedDataset {
    bool regression = false;
    bool translation = false;
    bool languageModel = false;
    TextDataset text;
    SeriesDataset series;
    TranslationDataset pairs;
    LanguageModelDataset stream;

    const std::vector<std::string>& notes() const
    {
        return languageModel ? stream.notes : regression ? series.notes : translation ? pairs.notes : text.notes;
    }
};

} // namespace attnlab
