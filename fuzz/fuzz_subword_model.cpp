// A translation checkpoint's SentencePiece model: the bytes of its ModelProto (option 1 = 0) or the
// base64 text a checkpoint's JSON carries (option 1 = 1), loaded as BPE or unigram (option 0) the way Translator
// loads it, then a few sentences split into pieces. A bad model must fail cleanly, naming where it came from; a
// model that loads must split every sentence into pieces that are not empty.
#include "core/data/SubwordModel.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"

#include <cstdint>
#include <cstdlib>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 2);
    const std::string kind = in.choice(0, 2) == 0 ? "bpe" : "unigram";
    fuzz::CleanFailure::expect([&] {
        const auto model = in.choice(1, 2) == 0 ? SubwordModel::fromSerialized(in.body(), kind, "checkpoint fuzz.pt")
                                                : SubwordModel::fromText(in.body(), kind, "checkpoint fuzz.pt");
        for (const char* sentence : {"ein mann fährt fahrrad .", "Zwei Hunde spielen im Schnee!", "東京 café", ""})
            for (const auto& piece : model.encode(sentence))
                if (piece.empty())
                    std::abort(); // a piece of nothing: the split is broken
    });
    return 0;
}
