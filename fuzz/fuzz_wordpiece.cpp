// A pretrained model's tokenizer: vocab.txt (part 0) and, with option 0, tokenizer_config.json
// (part 2) read as PretrainedEncoder reads a folder, then the text of part 1 encoded with the max_length of
// option 1. The encoding must be consistent: [CLS] first, [SEP] last, one id, token and word index per piece,
// every id the vocabulary's entry for its token, no more pieces than max_length.
#include "core/data/pretrained/WordPieceTokenizer.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

#include <cstdint>
#include <filesystem>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 2);
    auto& scratch = fuzz::ScratchFolder::instance();
    const auto vocab = scratch.write("vocab.txt", in.part(0));
    const std::string folder = std::filesystem::path(vocab).parent_path().string();
    const bool withConfig = in.choice(0, 2) == 1;
    const auto config = (std::filesystem::path(folder) / "tokenizer_config.json").string();
    if (withConfig)
        scratch.write("tokenizer_config.json", in.part(2));
    else
        std::filesystem::remove(config);
    const int maxLength = static_cast<int>(in.choice(1, 64)); // 0: no limit
    fuzz::CleanFailure::expect([&] {
        const auto tokenizer = WordPieceTokenizer::fromFolder(folder);
        const auto e = tokenizer.encode(in.part(1), maxLength);
        const std::size_t n = e.ids.size();
        if (n < 2 || e.tokens.size() != n || e.words.size() != n || e.truncated < 0)
            __builtin_trap();
        if (e.ids.front() != tokenizer.clsId() || e.ids.back() != tokenizer.sepId())
            __builtin_trap();
        if (maxLength >= 2 && n > static_cast<std::size_t>(maxLength))
            __builtin_trap();
        for (std::size_t i = 0; i < n; ++i) {
            if (e.ids[i] < 0 || e.ids[i] >= tokenizer.size() || tokenizer.tokenOf(e.ids[i]) != e.tokens[i])
                __builtin_trap();
            if (e.words[i] >= static_cast<int>(e.wordTexts.size()))
                __builtin_trap();
        }
    });
    return 0;
}
