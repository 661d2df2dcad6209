#include "core/data/DatasetCatalog.h"

#include "core/config/Registry.h"
#include "core/data/DataLocator.h"
#include "core/data/readers/CsvSeriesReader.h"
#include "core/data/readers/CsvTextReader.h"
#include "core/data/readers/LabelledLinesReader.h"
#include "core/data/readers/SemEvalReader.h"
#include "core/data/readers/Sml2010Reader.h"
#include "core/data/readers/SstReader.h"
#include "core/data/readers/SyntheticLag.h"
#include "core/data/readers/SyntheticSentiment.h"

#include <stdexcept>

namespace attnlab {
namespace {

[[noreturn]] void unknown(const std::string& id)
{
    throw std::invalid_argument("unknown dataset '" + id + "' (known: " + Registry::idList(Registry::datasets()) + ")");
}

std::string folderOf(const std::string& id, const DatasetOptions& options)
{
    const std::string relative = DatasetCatalog::dataFolder(id);
    return DataLocator::join(DataLocator::locate(relative, options.dataDir), relative);
}

} // namespace

std::string DatasetCatalog::dataFolder(const std::string& id)
{
    if (id == "sst-fine" || id == "sst-binary") return "sentiment/sst";
    if (id == "opener") return "sentiment/opener";
    if (id == "sentube-auto") return "sentiment/sentube_auto";
    if (id == "sentube-tablets") return "sentiment/sentube_tablets";
    if (id == "semeval2013") return "sentiment/semeval";
    if (id == "sml2010") return "sml2010";
    return {};
}

bool DatasetCatalog::isRegression(const std::string& id)
{
    const auto* entry = Registry::find(Registry::datasets(), id);
    return entry && entry->task == "regression";
}

LoadedDataset DatasetCatalog::loadAny(const std::string& id, const DatasetOptions& options)
{
    LoadedDataset data;
    data.regression = isRegression(id);
    if (data.regression)
        data.series = loadSeries(id, options);
    else
        data.text = load(id, options);
    return data;
}

TextDataset DatasetCatalog::load(const std::string& id, std::uint64_t seed)
{
    DatasetOptions options;
    options.seed = seed;
    return load(id, options);
}

TextDataset DatasetCatalog::load(const std::string& id, const DatasetOptions& options)
{
    TextDataset dataset = read(id, options);
    dataset.lowercase = options.lowercase;
    if (id == "synthetic-sentiment" || id == "opener")
        dataset.tokenizer = "whitespace";
    else if (id == "semeval2013")
        dataset.tokenizer = "tweet";
    else if (id == "csv-text")
        dataset.tokenizer = options.tokenizer;
    else
        dataset.tokenizer = "ptb"; // SST's trees and SenTube's comments
    return dataset;
}

TextDataset DatasetCatalog::read(const std::string& id, const DatasetOptions& options)
{
    if (id == "synthetic-sentiment") {
        SyntheticSentiment::Options o;
        o.seed = options.seed;
        o.trainSize = options.syntheticTrain;
        o.devSize = options.syntheticDev;
        o.testSize = options.syntheticTest;
        o.orderDependent = options.orderDependent;
        o.minFillers = options.minFillers;
        o.maxFillers = options.maxFillers;
        o.distance = options.distance;
        return SyntheticSentiment::generate(o);
    }
    if (id == "sst-fine" || id == "sst-binary")
        return SstReader::read(folderOf(id, options), id == "sst-binary", options);
    // OpeNER is distributed tokenised; SenTube comments are raw text; SemEval is tweets.
    if (id == "opener")
        return LabelledLinesReader::read(folderOf(id, options),
                                         {id, "OpeNER hotel reviews", {"strneg", "neg", "pos", "strpos"},
                                          {"very negative", "negative", "positive", "very positive"}},
                                         Tokenizer(Tokenizer::Style::Whitespace, options.lowercase));
    if (id == "sentube-auto" || id == "sentube-tablets")
        return LabelledLinesReader::read(folderOf(id, options),
                                         {id, id == "sentube-auto" ? "SenTube automobiles" : "SenTube tablets",
                                          {"neg", "pos"}, {"negative", "positive"}},
                                         Tokenizer(Tokenizer::Style::Ptb, options.lowercase));
    if (id == "semeval2013")
        return SemEvalReader::read(folderOf(id, options), Tokenizer(Tokenizer::Style::Tweet, options.lowercase));
    if (id == "csv-text")
        return CsvTextReader::read(options);
    if (isRegression(id))
        throw std::invalid_argument("dataset '" + id + "' is a regression (time-series) dataset, not a classification one");
    unknown(id);
}

SeriesDataset DatasetCatalog::loadSeries(const std::string& id, const DatasetOptions& options)
{
    if (id == "sml2010")
        return Sml2010Reader::read(folderOf(id, options), options);
    if (id == "csv-series")
        return CsvSeriesReader::read(options);
    if (id == "synthetic-lag")
        return SyntheticLag::generate(options);
    if (Registry::find(Registry::datasets(), id))
        throw std::invalid_argument("dataset '" + id + "' is a classification dataset, not a time series");
    unknown(id);
}

} // namespace attnlab
