#include "core/data/readers/Multi30kReader.h"

#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/ParallelText.h"
#include "core/data/Tokenizer.h"

#include <algorithm>

namespace attnlab {
namespace {

void checkLanguage(const std::string& language, const std::string& setting)
{
    const auto& known = Multi30kReader::languages();
    if (std::find(known.begin(), known.end(), language) == known.end())
        throw DataError("multi30k", 0, "setting " + setting + ": '" + language + "' is not one of en, de, fr");
}

} // namespace

const std::vector<std::string>& Multi30kReader::languages()
{
    static const std::vector<std::string> list = {"en", "de", "fr"};
    return list;
}

std::string Multi30kReader::fileOf(const std::string& split, const std::string& language)
{
    // The upstream names: the WMT 2016 multimodal task's dev set is "val", its test set "test_2016_flickr".
    const std::string stem = split == "train" ? "train" : split == "dev" ? "val" : "test_2016_flickr";
    return stem + "." + language + ".gz";
}

TranslationDataset Multi30kReader::read(const std::string& folder, const DatasetOptions& o)
{
    checkLanguage(o.sourceLanguage, "source language");
    checkLanguage(o.targetLanguage, "target language");
    if (o.sourceLanguage == o.targetLanguage)
        throw DataError("multi30k", 0, "setting source and target language: both are '" + o.sourceLanguage +
                                           "'; translation needs two different languages");
    const Tokenizer tokenizer(Tokenizer::styleFromName(o.translationTokenizer), o.lowercase);
    TranslationDataset d;
    d.id = "multi30k";
    d.name = "Multi30k (" + o.sourceLanguage + " to " + o.targetLanguage + ")";
    d.sourceLanguage = o.sourceLanguage;
    d.targetLanguage = o.targetLanguage;
    d.tokenizer = o.translationTokenizer;
    d.lowercase = o.lowercase;
    for (const auto& [split, pairs] : {std::pair{"train", &d.train}, {"dev", &d.dev}, {"test", &d.test}}) {
        const std::string source = DataLocator::join(folder, fileOf(split, o.sourceLanguage));
        *pairs = ParallelText::readFiles(source, DataLocator::join(folder, fileOf(split, o.targetLanguage)), tokenizer);
        ParallelText::requirePairs(*pairs, source, split);
    }
    auto path = [&](const char* split) { return DataLocator::join(folder, fileOf(split, o.sourceLanguage)); };
    ParallelText::applyCap(d, o.maxPairLength, {path("train"), path("dev"), path("test")});
    d.probe = ParallelText::probeFrom(d.dev);
    return d;
}

} // namespace attnlab
