#include "core/data/readers/CsvPairsReader.h"

#include "core/data/CsvTable.h"
#include "core/data/DataError.h"
#include "core/data/ParallelText.h"
#include "core/data/Tokenizer.h"

#include <algorithm>
#include <random>

namespace attnlab {
namespace {

std::vector<TranslationPair> rowsOf(const std::string& path, const DatasetOptions& o, const Tokenizer& tokenizer,
                                    std::vector<std::string>& notes, std::pair<std::string, std::string>& names)
{
    const CsvTable table = CsvTable::read(path, {o.delimiter, o.header, CsvTable::quotingFromName(o.quoting)});
    notes.insert(notes.end(), table.notes.begin(), table.notes.end());
    const auto [sourceColumn, targetColumn] = CsvPairsReader::columnsOf(table, o);
    const std::string& sourceName = table.columns[static_cast<std::size_t>(sourceColumn)];
    const std::string& targetName = table.columns[static_cast<std::size_t>(targetColumn)];
    if (table.hasHeader)
        names = {sourceName, targetName};
    std::vector<TranslationPair> pairs;
    pairs.reserve(table.rows.size());
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const auto& row = table.rows[r];
        TranslationPair p = ParallelText::pairOf(row[static_cast<std::size_t>(sourceColumn)],
                                                 row[static_cast<std::size_t>(targetColumn)], tokenizer);
        if (p.source.empty() || p.target.empty())
            throw DataError(path, table.lines[r], std::string("the ") + (p.source.empty() ? "source" : "target") +
                                                      " sentence (column '" + (p.source.empty() ? sourceName : targetName) +
                                                      "') is empty: every row needs both sides of its pair");
        pairs.push_back(std::move(p));
    }
    return pairs;
}

bool textColumn(const CsvTable& table, std::size_t c) { return !table.rows.empty() && !CsvTable::isNumber(table.rows[0][c]); }

} // namespace

std::pair<int, int> CsvPairsReader::columnsOf(const CsvTable& table, const DatasetOptions& o)
{
    int source = o.sourceColumn.empty() ? -1 : table.columnIndex(o.sourceColumn, "source column");
    int target = o.targetColumn.empty() ? -1 : table.columnIndex(o.targetColumn, "target column");
    // Unnamed: the first text columns (a number in the first row is an id, a score), the source's first.
    for (std::size_t c = 0; c < table.columns.size() && source < 0; ++c)
        if (static_cast<int>(c) != target && textColumn(table, c))
            source = static_cast<int>(c);
    // The target: the next text column after the source's, else the first one before it.
    const std::size_t n = table.columns.size();
    for (std::size_t k = 1; k <= n && target < 0 && source >= 0; ++k)
        if (const std::size_t c = (static_cast<std::size_t>(source) + k) % n; static_cast<int>(c) != source && textColumn(table, c))
            target = static_cast<int>(c);
    if (source < 0 || target < 0)
        throw DataError(table.source, 0, std::string("setting ") + (source < 0 ? "source" : "target") +
                                             " column: no second column of text for it; a pairs file needs a source and a "
                                             "target column (name them with the source and target column settings)");
    if (source == target)
        throw DataError(table.source, 0, "setting source and target column: both are column '" +
                                             table.columns[static_cast<std::size_t>(source)] + "'");
    return {source, target};
}

TranslationDataset CsvPairsReader::read(const DatasetOptions& o)
{
    const Tokenizer tokenizer(Tokenizer::styleFromName(o.translationTokenizer), o.lowercase);
    const bool lineFiles = !o.sourceFile.empty() || !o.targetFile.empty();
    const bool perSplit = lineFiles ? !(o.devSourceFile + o.devTargetFile + o.testSourceFile + o.testTargetFile).empty()
                                    : !o.trainFile.empty();
    if (lineFiles && (o.sourceFile.empty() || o.targetFile.empty()))
        throw DataError("csv-pairs", 0, "setting source file, target file: two files of parallel lines are needed, one per side");
    if (lineFiles && perSplit &&
        (o.devSourceFile.empty() || o.devTargetFile.empty() || o.testSourceFile.empty() || o.testTargetFile.empty()))
        throw DataError("csv-pairs", 0, "setting dev and test files: with per-split line files, dev and test each need a "
                                        "source and a target file");
    if (!lineFiles && !perSplit && o.file.empty())
        throw DataError("csv-pairs", 0, "setting file: give a CSV/TSV of sentence pairs (or train/dev/test files), or two "
                                        "files of parallel lines (source file and target file)");
    if (!lineFiles && perSplit && (o.devFile.empty() || o.testFile.empty()))
        throw DataError("csv-pairs", 0, "setting files: with a train file, a dev and a test file are needed too");

    TranslationDataset d;
    d.id = "csv-pairs";
    d.tokenizer = o.translationTokenizer;
    d.lowercase = o.lowercase;
    std::pair<std::string, std::string> names{"source", "target"};
    std::vector<TranslationPair> all;
    std::string source; // what the splits came from, for messages
    if (lineFiles) {
        source = o.sourceFile;
        if (perSplit) {
            d.train = ParallelText::readFiles(o.sourceFile, o.targetFile, tokenizer);
            d.dev = ParallelText::readFiles(o.devSourceFile, o.devTargetFile, tokenizer);
            d.test = ParallelText::readFiles(o.testSourceFile, o.testTargetFile, tokenizer);
        } else {
            all = ParallelText::readFiles(o.sourceFile, o.targetFile, tokenizer);
        }
    } else if (perSplit) {
        source = o.trainFile;
        d.train = rowsOf(o.trainFile, o, tokenizer, d.notes, names);
        d.dev = rowsOf(o.devFile, o, tokenizer, d.notes, names);
        d.test = rowsOf(o.testFile, o, tokenizer, d.notes, names);
    } else {
        source = o.file;
        all = rowsOf(o.file, o, tokenizer, d.notes, names);
    }
    if (!perSplit) {
        if (!(o.trainFraction > 0 && o.devFraction > 0 && o.trainFraction + o.devFraction < 1))
            throw DataError(source, 0, "setting split fractions: train and dev must be positive and leave room for test");
        std::mt19937_64 rng(o.seed);
        std::shuffle(all.begin(), all.end(), rng);
        const auto nTrain = static_cast<std::size_t>(static_cast<double>(all.size()) * o.trainFraction);
        const auto nDev = static_cast<std::size_t>(static_cast<double>(all.size()) * o.devFraction);
        d.train.assign(std::make_move_iterator(all.begin()), std::make_move_iterator(all.begin() + static_cast<long>(nTrain)));
        d.dev.assign(std::make_move_iterator(all.begin() + static_cast<long>(nTrain)),
                     std::make_move_iterator(all.begin() + static_cast<long>(nTrain + nDev)));
        d.test.assign(std::make_move_iterator(all.begin() + static_cast<long>(nTrain + nDev)), std::make_move_iterator(all.end()));
    }
    d.name = "Pairs from " + source;
    d.sourceLanguage = names.first;
    d.targetLanguage = names.second;
    const ParallelText::Sources sources{source, !perSplit ? source : lineFiles ? o.devSourceFile : o.devFile,
                                        !perSplit ? source : lineFiles ? o.testSourceFile : o.testFile};
    ParallelText::requirePairs(d.train, sources.train, "train");
    ParallelText::requirePairs(d.dev, sources.dev, "dev");
    ParallelText::requirePairs(d.test, sources.test, "test");
    ParallelText::applyCap(d, o.maxPairLength, sources);
    d.probe = ParallelText::probeFrom(d.dev);
    return d;
}

} // namespace attnlab
