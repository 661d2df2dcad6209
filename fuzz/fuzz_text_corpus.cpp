// A language model's own text (text-file) through DatasetCatalog::loadLanguageModel, as characters or words, plain
// or gzip-compressed by the harness: whatever the bytes, the reader either refuses them with a clean error (empty,
// binary, not UTF-8, too short) or gives three splits whose ids are all in the vocabulary and whose tokens join
// back into the text it read (characters: byte for byte, the carriage returns and a byte-order mark excepted).
#include "core/data/DatasetCatalog.h"
#include "core/data/LanguageModelText.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/Gzipped.h"
#include "fuzz/support/ScratchFolder.h"


#include <algorithm>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 2);
    const auto& scratch = fuzz::ScratchFolder::instance();
    DatasetOptions o;
    o.lmUnit = in.pick<std::string>(0, {"characters", "words"});
    const bool gz = in.choice(1, 2) == 1;
    o.file = gz ? scratch.write("text.txt.gz", fuzz::gzipped(in.body())) : scratch.write("text.txt", in.body());
    fuzz::CleanFailure::expect([&] {
        const LanguageModelDataset d = DatasetCatalog::loadLanguageModel("text-file", o);
        if (d.train.empty() || d.vocabulary.empty())
            __builtin_trap();
        std::vector<std::string> tokens;
        for (const auto* split : {&d.train, &d.dev, &d.test})
            for (auto id : *split) {
                if (id < 0 || static_cast<std::size_t>(id) >= d.vocabulary.size())
                    __builtin_trap();
                tokens.push_back(d.vocabulary[static_cast<std::size_t>(id)]);
            }
        if (o.lmUnit == "characters") {
            std::string text = in.body();
            if (text.compare(0, 3, "\xEF\xBB\xBF") == 0)
                text.erase(0, 3);
            text.erase(std::remove(text.begin(), text.end(), '\r'), text.end());
            if (LanguageModelText::join(tokens, "characters") != text)
                __builtin_trap();
        }
    });
    return 0;
}
