#include "core/data/readers/LabelledLinesReader.h"

#include "core/data/DataLocator.h"
#include "core/data/DatasetSplitCheck.h"
#include "core/data/TextFile.h"

namespace attnlab {

TextDataset LabelledLinesReader::read(const std::string& folder, const Layout& layout, const Tokenizer& tokenizer)
{
    TextDataset d;
    d.id = layout.id;
    d.name = layout.name;
    d.classNames = layout.classNames;
    const std::pair<const char*, std::vector<TextExample>*> splits[] = {{"train", &d.train}, {"dev", &d.dev}, {"test", &d.test}};
    for (const auto& [split, examples] : splits) {
        for (std::size_t c = 0; c < layout.classFiles.size(); ++c) {
            const std::string path = DataLocator::join(folder, std::string(split) + "/" + layout.classFiles[c] + ".txt");
            for (const auto& line : TextFile::readLines(path))
                examples->push_back({tokenizer.tokenize(TextFile::withoutZeroWidth(line)), static_cast<int>(c)});
        }
        DatasetSplitCheck::requireExamples(*examples, DataLocator::join(folder, split), split);
    }
    d.probeTokens = DatasetSplitCheck::probeFrom(d.dev);
    return d;
}

} // namespace attnlab
