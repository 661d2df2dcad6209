#include "core/data/DatasetCatalog.h"

#include "core/config/Registry.h"
#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/TextFile.h"
#include "core/data/SubwordModel.h"
#include "core/data/Tokenizer.h"
#include "core/data/readers/CsvPairsReader.h"
#include "core/data/readers/CsvSeriesReader.h"
#include "core/data/readers/CsvTextReader.h"
#include "core/data/readers/LabelledLinesReader.h"
#include "core/data/readers/Multi30kReader.h"
#include "core/data/readers/SemEvalReader.h"
#include "core/data/readers/Sml2010Reader.h"
#include "core/data/readers/SstReader.h"
#include "core/data/readers/SyntheticLag.h"
#include "core/data/readers/SyntheticSentiment.h"
#include "core/data/readers/SyntheticRepeat.h"
#include "core/data/readers/SyntheticTranslation.h"
#include "core/data/readers/TextCorpusReader.h"

#include <functional>
#include <stdexcept>
#include <vector>

namespace attnlab {
namespace {

// A language model's word pieces, when its unit is "pieces": BPE unless the unigram model is asked for.
TextPieceSettings piecesOf(const DatasetOptions& options)
{
    return {options.subwords.empty() ? "bpe" : options.subwords, options.subwordVocabulary};
}

[[noreturn]] void unknown(const std::string& id)
{
    throw std::invalid_argument("unknown dataset '" + id + "' (known: " + Registry::idList(Registry::datasets()) + ")");
}

// How each dataset is read: one entry per registry id (Registry::datasets() holds its name, description and
// task, for the lists people see). A new dataset is one entry here and one there.
struct DatasetReader {
    std::string id;
    std::string folder;    // relative to the data folder ("sentiment/sst"); "" for generated data and the user's files
    std::string tokenizer; // how typed text is split for it; "" = the options' (csv-text: tokenizer; csv-pairs: translationTokenizer)
    std::function<TextDataset(const std::string& folder, const DatasetOptions&)> text;     // classification
    std::function<SeriesDataset(const std::string& folder, const DatasetOptions&)> series; // regression
    std::function<TranslationDataset(const std::string& folder, const DatasetOptions&)> translation; // translation
    std::function<LanguageModelDataset(const std::string& folder, const DatasetOptions&)> languageModel; // language model
};

// Every pair's sides as SentencePiece pieces learnt on the training split (one model a side), from the lines as
// read (lowercased first when asked), after the reader's length cap; the models go with the dataset to the
// checkpoint.
void splitIntoSubwords(TranslationDataset& dataset, const DatasetOptions& options)
{
    auto textOf = [&](const std::string& line) {
        return options.lowercase ? Tokenizer::lowercased(line) : line;
    };
    for (const bool target : {false, true}) {
        std::vector<std::string> sentences;
        sentences.reserve(dataset.train.size());
        for (const auto& p : dataset.train)
            sentences.push_back(textOf(target ? p.targetText : p.sourceText));
        const auto model = SubwordModel::train(sentences, options.subwords, options.subwordVocabulary);
        for (auto* split : {&dataset.train, &dataset.dev, &dataset.test})
            for (auto& p : *split)
                (target ? p.target : p.source) = model.encode(textOf(target ? p.targetText : p.sourceText));
        auto& probe = dataset.probe;
        if (!(target ? probe.targetText : probe.sourceText).empty())
            (target ? probe.target : probe.source) = model.encode(textOf(target ? probe.targetText : probe.sourceText));
        (target ? dataset.targetSubwords : dataset.sourceSubwords) = model.toText();
    }
    dataset.tokenizer = options.subwords;
    dataset.notes.push_back("subwords: " + options.subwords + " pieces learnt on the " + std::to_string(dataset.train.size()) +
                            " training pairs (about " + std::to_string(options.subwordVocabulary) + " a side)");
}

// A built-in translation task with the options' sizes and lengths.
TranslationDataset synthetic(const std::string& task, const DatasetOptions& options)
{
    SyntheticTranslation::Options o;
    o.task = task;
    o.seed = options.seed;
    o.trainSize = options.translationTrain;
    o.devSize = options.translationDev;
    o.testSize = options.translationTest;
    o.minLength = options.sequenceMinLength;
    o.maxLength = options.sequenceMaxLength;
    return SyntheticTranslation::generate(o);
}

const std::vector<DatasetReader>& readers()
{
    using O = const DatasetOptions&;
    using F = const std::string&;
    static const std::vector<DatasetReader> table = {
        {"synthetic-sentiment", "", "whitespace",
         [](F, O options) {
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
         },
         {}},
        {"sst-fine", "sentiment/sst", "ptb", [](F folder, O options) { return SstReader::read(folder, false, options); }, {}},
        {"sst-binary", "sentiment/sst", "ptb", [](F folder, O options) { return SstReader::read(folder, true, options); }, {}},
        // OpeNER is distributed tokenised; SenTube comments are raw text; SemEval is tweets.
        {"opener", "sentiment/opener", "whitespace",
         [](F folder, O options) {
             return LabelledLinesReader::read(folder,
                                              {"opener", "OpeNER hotel reviews", {"strneg", "neg", "pos", "strpos"},
                                               {"very negative", "negative", "positive", "very positive"}},
                                              Tokenizer(Tokenizer::Style::Whitespace, options.lowercase));
         },
         {}},
        {"sentube-auto", "sentiment/sentube_auto", "ptb",
         [](F folder, O options) {
             return LabelledLinesReader::read(folder, {"sentube-auto", "SenTube automobiles", {"neg", "pos"}, {"negative", "positive"}},
                                              Tokenizer(Tokenizer::Style::Ptb, options.lowercase));
         },
         {}},
        {"sentube-tablets", "sentiment/sentube_tablets", "ptb",
         [](F folder, O options) {
             return LabelledLinesReader::read(folder, {"sentube-tablets", "SenTube tablets", {"neg", "pos"}, {"negative", "positive"}},
                                              Tokenizer(Tokenizer::Style::Ptb, options.lowercase));
         },
         {}},
        {"semeval2013", "sentiment/semeval", "tweet",
         [](F folder, O options) { return SemEvalReader::read(folder, Tokenizer(Tokenizer::Style::Tweet, options.lowercase)); },
         {}},
        {"csv-text", "", "", [](F, O options) { return CsvTextReader::read(options); }, {}},
        {"sml2010", "sml2010", "", {}, [](F folder, O options) { return Sml2010Reader::read(folder, options); }},
        {"csv-series", "", "", {}, [](F, O options) { return CsvSeriesReader::read(options); }},
        {"synthetic-lag", "", "", {}, [](F, O options) { return SyntheticLag::generate(options); }},
        // Translation: Multi30k's raw lines and the user's pairs are split into words; the synthetic pairs are tokens already.
        {"multi30k", "translation/multi30k", "", {}, {}, [](F folder, O options) { return Multi30kReader::read(folder, options); }},
        {"synthetic-reverse", "", "whitespace", {}, {}, [](F, O options) { return synthetic("reverse", options); }},
        {"synthetic-dates", "", "whitespace", {}, {}, [](F, O options) { return synthetic("dates", options); }},
        {"synthetic-copy", "", "whitespace", {}, {}, [](F, O options) { return synthetic("copy", options); }},
        {"synthetic-sort", "", "whitespace", {}, {}, [](F, O options) { return synthetic("sort", options); }},
        {"csv-pairs", "", "", {}, {}, [](F, O options) { return CsvPairsReader::read(options); }},
        // Language models: a text as characters (or words), and the induction-heads task.
        {"tinyshakespeare", "lm/tinyshakespeare", "", {}, {}, {},
         [](F folder, O) {
             const std::string plain = DataLocator::join(folder, "input.txt");
             return TextCorpusReader::tinyShakespeare(TextFile::exists(plain) ? plain : plain + ".gz");
         }},
        {"multi30k-lm", "translation/multi30k", "", {}, {}, {},
         [](F folder, O options) { return TextCorpusReader::multi30k(folder, options.targetLanguage, options.lmUnit, piecesOf(options)); }},
        {"text-file", "", "", {}, {}, {},
         [](F, O options) {
             if (options.file.empty())
                 throw DataError("text-file", 0, "no file given: set the text file (--file FILE)");
             return TextCorpusReader::ownText(options.file, options.lmUnit, piecesOf(options));
         }},
        {"synthetic-repeat", "", "", {}, {}, {},
         [](F, O options) {
             SyntheticRepeat::Options o;
             o.seed = options.seed;
             o.length = options.repeatLength;
             o.vocabulary = options.repeatVocabulary;
             o.trainBlocks = options.repeatTrain;
             o.devBlocks = options.repeatDev;
             o.testBlocks = options.repeatTest;
             return SyntheticRepeat::generate(o);
         }},
    };
    return table;
}

const DatasetReader& readerOf(const std::string& id)
{
    for (const auto& r : readers())
        if (r.id == id)
            return r;
    unknown(id);
}

// What a reader reads, in the words of the refusals ("dataset 'sml2010' is a regression (time-series) dataset, ...").
std::string kindOf(const DatasetReader& reader)
{
    return reader.series ? "regression (time-series)" : reader.translation ? "translation (sentence pairs)"
                         : reader.languageModel ? "language-model (text)" : "classification";
}

std::string folderOf(const DatasetReader& reader, const DatasetOptions& options)
{
    if (reader.folder.empty())
        return {};
    return DataLocator::join(DataLocator::locate(reader.folder, options.dataDir), reader.folder);
}

} // namespace

std::string DatasetCatalog::dataFolder(const std::string& id)
{
    for (const auto& r : readers())
        if (r.id == id)
            return r.folder;
    return {};
}

bool DatasetCatalog::isRegression(const std::string& id)
{
    return Registry::taskOf(id) == TaskKind::Regression;
}

bool DatasetCatalog::isTranslation(const std::string& id)
{
    return Registry::taskOf(id) == TaskKind::Translation;
}

bool DatasetCatalog::isLanguageModel(const std::string& id)
{
    return Registry::taskOf(id) == TaskKind::LanguageModel;
}

LanguageModelDataset DatasetCatalog::loadLanguageModel(const std::string& id, const DatasetOptions& options)
{
    const DatasetReader& reader = readerOf(id);
    if (!reader.languageModel)
        throw std::invalid_argument("dataset '" + id + "' is a " + kindOf(reader) + " dataset, not a language-model one (text)");
    return reader.languageModel(folderOf(reader, options), options);
}

LoadedDataset DatasetCatalog::loadAny(const std::string& id, const DatasetOptions& options)
{
    LoadedDataset data;
    data.regression = isRegression(id);
    data.translation = isTranslation(id);
    data.languageModel = isLanguageModel(id);
    if (data.languageModel)
        data.stream = loadLanguageModel(id, options);
    else if (data.regression)
        data.series = loadSeries(id, options);
    else if (data.translation)
        data.pairs = loadTranslation(id, options);
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
    const std::string& tokenizer = readerOf(id).tokenizer;
    dataset.tokenizer = tokenizer.empty() ? options.tokenizer : tokenizer;
    return dataset;
}

TextDataset DatasetCatalog::read(const std::string& id, const DatasetOptions& options)
{
    const DatasetReader& reader = readerOf(id);
    if (!reader.text)
        throw std::invalid_argument("dataset '" + id + "' is a " + kindOf(reader) + " dataset, not a classification one");
    return reader.text(folderOf(reader, options), options);
}

SeriesDataset DatasetCatalog::loadSeries(const std::string& id, const DatasetOptions& options)
{
    const DatasetReader& reader = readerOf(id);
    if (!reader.series)
        throw std::invalid_argument("dataset '" + id + "' is a " + kindOf(reader) + " dataset, not a time series");
    return reader.series(folderOf(reader, options), options);
}

TranslationDataset DatasetCatalog::loadTranslation(const std::string& id, const DatasetOptions& options)
{
    const DatasetReader& reader = readerOf(id);
    if (!reader.translation)
        throw std::invalid_argument("dataset '" + id + "' is a " + kindOf(reader) + " dataset, not a translation one (sentence pairs)");
    TranslationDataset dataset = reader.translation(folderOf(reader, options), options);
    dataset.lowercase = options.lowercase;
    dataset.tokenizer = reader.tokenizer.empty() ? options.translationTokenizer : reader.tokenizer;
    if (!options.subwords.empty()) {
        if (dataset.goldAlignment)
            throw std::invalid_argument("subwords: dataset '" + id + "' is made of tokens already, with word alignments; "
                                        "subwords apply to multi30k and your own pairs");
        splitIntoSubwords(dataset, options);
    }
    return dataset;
}

} // namespace attnlab
