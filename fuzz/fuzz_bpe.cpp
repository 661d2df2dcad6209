// A pretrained language model's tokenizer (a GGUF file's tokens and merges) and typed text: the first part of the
// body is the vocabulary, one token a line, the second the merges, one "a b" a line, the third the text, encoded
// and decoded as the Real LLM tab does. Option byte 0: special tokens taken whole (odd) or as text.
#include "core/data/pretrained/ByteLevelBpeTokenizer.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace attnlab;

namespace {

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 1);
    const bool specials = in.choice(0, 2) == 1;
    fuzz::CleanFailure::expect([&] {
        std::vector<std::string> tokens = lines(in.part(0));
        std::vector<int> types(tokens.size(), 1);
        for (std::size_t i = 0; i < tokens.size(); ++i)
            if (tokens[i].size() > 2 && tokens[i].front() == '<' && tokens[i].back() == '>')
                types[i] = 3; // control: "<|im_start|>"
        const ByteLevelBpeTokenizer tokenizer(tokens, types, lines(in.part(1)), "fuzz");
        const std::string text = in.part(2);
        const BpeEncoding e = tokenizer.encode(text, specials);
        if (e.ids.size() != e.pieces.size() || e.ids.size() != e.bytes.size())
            __builtin_trap();
        for (std::size_t i = 0; i < e.ids.size(); ++i)
            if (e.bytes[i].first < 0 || e.bytes[i].second > static_cast<int>(text.size()) ||
                e.bytes[i].first > e.bytes[i].second)
                __builtin_trap(); // each piece is a range of the text's bytes
        (void)tokenizer.decode(e.ids);
    });
    return 0;
}
