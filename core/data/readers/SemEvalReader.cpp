#include "core/data/readers/SemEvalReader.h"

#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/DatasetSplitCheck.h"
#include "core/data/TextFile.h"

namespace attnlab {

int SemEvalReader::labelIndex(const std::string& raw)
{
    std::string label = raw;
    if (label.size() >= 2 && label.front() == '"' && label.back() == '"')
        label = label.substr(1, label.size() - 2);
    if (label == "negative") return 0;
    if (label == "neutral" || label == "objective" || label == "objective-OR-neutral") return 1;
    if (label == "positive") return 2;
    return -1;
}

TextDataset SemEvalReader::read(const std::string& folder, const Tokenizer& tokenizer)
{
    TextDataset d;
    d.id = "semeval2013";
    d.name = "SemEval-2013 Twitter";
    d.classNames = {"negative", "neutral", "positive"};
    const std::pair<const char*, std::vector<TextExample>*> splits[] = {{"train", &d.train}, {"dev", &d.dev}, {"test", &d.test}};
    for (const auto& [split, examples] : splits) {
        const std::string path = DataLocator::join(folder, std::string(split) + ".tsv");
        const auto lines = TextFile::readLines(path);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const std::string& line = lines[i];
            if (line.empty())
                continue;
            std::vector<std::string> fields;
            std::size_t start = 0;
            for (int f = 0; f < 3; ++f) {
                const auto tab = line.find('\t', start);
                if (tab == std::string::npos)
                    break;
                fields.push_back(line.substr(start, tab - start));
                start = tab + 1;
            }
            if (fields.size() < 3)
                throw DataError(path, static_cast<int>(i + 1),
                                "short row: " + std::to_string(fields.size() + 1) +
                                    " tab-separated fields, expected 4 (tweet id, user id, label, text)");
            const int label = labelIndex(fields[2]);
            if (label < 0)
                throw DataError(path, static_cast<int>(i + 1),
                                "unknown label " + fields[2] + " (known: positive, negative, neutral, objective, objective-OR-neutral)");
            examples->push_back({tokenizer.tokenize(TextFile::withoutZeroWidth(line.substr(start))), label});
        }
        DatasetSplitCheck::requireExamples(*examples, path, split);
    }
    d.probeTokens = DatasetSplitCheck::probeFrom(d.dev);
    return d;
}

} // namespace attnlab
