#include "core/data/readers/CsvTextReader.h"

#include "core/data/CsvTable.h"
#include "core/data/DataError.h"
#include "core/data/DatasetSplitCheck.h"
#include "core/data/Tokenizer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>

namespace attnlab {
namespace {

struct Row {
    std::string text, label, file;
    int line = 0;
};

std::vector<Row> rowsOf(const std::string& path, const DatasetOptions& o, std::vector<std::string>& notes)
{
    const CsvTable table = CsvTable::read(path, {o.delimiter, o.header, CsvTable::quotingFromName(o.quoting)});
    notes.insert(notes.end(), table.notes.begin(), table.notes.end());
    const auto [textColumn, labelColumn] = CsvTextReader::columnsOf(table, o);
    std::vector<Row> rows;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        std::string label = table.rows[r][static_cast<std::size_t>(labelColumn)];
        label.erase(0, label.find_first_not_of(" \t"));
        label.erase(label.find_last_not_of(" \t") + 1);
        if (label.empty())
            throw DataError(path, table.lines[r], "empty label in column '" + table.columns[static_cast<std::size_t>(labelColumn)] + "'");
        rows.push_back({table.rows[r][static_cast<std::size_t>(textColumn)], label, path, table.lines[r]});
    }
    return rows;
}

} // namespace

std::pair<int, int> CsvTextReader::columnsOf(const CsvTable& table, const DatasetOptions& o)
{
    int textColumn = -1;
    const int labelColumn = table.columnIndex(o.labelColumn.empty() ? std::to_string(table.columns.size()) : o.labelColumn, "label column");
    if (!o.textColumn.empty()) {
        textColumn = table.columnIndex(o.textColumn, "text column");
    } else {
        // The first column, other than the label, holding text rather than numbers.
        for (std::size_t c = 0; c < table.columns.size() && textColumn < 0; ++c)
            if (static_cast<int>(c) != labelColumn && !table.rows.empty() && !CsvTable::isNumber(table.rows[0][c]))
                textColumn = static_cast<int>(c);
        if (textColumn < 0)
            throw DataError(table.source, 0, "setting text column: no column holds text; name one with the text column setting");
    }
    return {textColumn, labelColumn};
}

TextDataset CsvTextReader::read(const DatasetOptions& o)
{
    const bool perSplit = !o.trainFile.empty();
    if (!perSplit && o.file.empty())
        throw DataError("csv-text", 0, "setting file: give a CSV/TSV file (or train/dev/test files)");
    if (perSplit && (o.devFile.empty() || o.testFile.empty()))
        throw DataError("csv-text", 0, "setting files: with a train file, a dev and a test file are needed too");
    std::vector<Row> train, dev, test;
    std::vector<std::string> notes;
    if (perSplit) {
        train = rowsOf(o.trainFile, o, notes);
        dev = rowsOf(o.devFile, o, notes);
        test = rowsOf(o.testFile, o, notes);
    } else {
        auto all = rowsOf(o.file, o, notes);
        if (!(o.trainFraction > 0 && o.devFraction > 0 && o.trainFraction + o.devFraction < 1))
            throw DataError(o.file, 0, "setting split fractions: train and dev must be positive and leave room for test");
        std::mt19937_64 rng(o.seed);
        std::shuffle(all.begin(), all.end(), rng);
        const auto nTrain = static_cast<std::size_t>(all.size() * o.trainFraction);
        const auto nDev = static_cast<std::size_t>(all.size() * o.devFraction);
        train.assign(all.begin(), all.begin() + static_cast<long>(nTrain));
        dev.assign(all.begin() + static_cast<long>(nTrain), all.begin() + static_cast<long>(nTrain + nDev));
        test.assign(all.begin() + static_cast<long>(nTrain + nDev), all.end());
    }
    const std::string source = perSplit ? o.trainFile : o.file;

    if (train.empty())
        throw DataError(source, 0, "the train split is empty (no examples)");
    std::set<std::string> labels;
    for (const auto& r : train) labels.insert(r.label);
    std::vector<std::string> classes(labels.begin(), labels.end());
    // A whole number, tested without converting to an integer type: "7777...7" (1e61) does not fit one.
    auto integral = [](const std::string& l) {
        double v = 0;
        return CsvTable::isNumber(l, &v) && std::floor(v) == v ? v : std::numeric_limits<double>::quiet_NaN();
    };
    const bool numeric = std::all_of(classes.begin(), classes.end(), [&](const std::string& l) { return !std::isnan(integral(l)); });
    if (numeric)
        std::sort(classes.begin(), classes.end(), [&](const std::string& a, const std::string& b) { return integral(a) < integral(b); });
    std::map<std::string, int> index;
    std::string known;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        index[classes[i]] = static_cast<int>(i);
        known += (i ? ", " : "") + classes[i];
    }

    const Tokenizer tokenizer(Tokenizer::styleFromName(o.tokenizer), o.lowercase);
    auto convert = [&](const std::vector<Row>& rows, std::vector<TextExample>& out) {
        for (const auto& r : rows) {
            auto it = index.find(r.label);
            if (it == index.end())
                throw DataError(r.file, r.line, "unknown label '" + r.label + "' (the training data has: " + known + ")");
            out.push_back({tokenizer.tokenize(r.text), it->second});
        }
    };
    TextDataset d;
    d.id = "csv-text";
    d.name = "Text from " + source;
    d.classNames = classes;
    d.notes = std::move(notes);
    convert(train, d.train);
    convert(dev, d.dev);
    convert(test, d.test);
    DatasetSplitCheck::requireExamples(d.dev, perSplit ? o.devFile : source, "dev");
    DatasetSplitCheck::requireExamples(d.test, perSplit ? o.testFile : source, "test");
    d.probeTokens = DatasetSplitCheck::probeFrom(d.dev);
    return d;
}

} // namespace attnlab
