// Word vectors a user points at (GloVe / word2vec / fastText text, word2vec binary; the format is detected
// from the content), raw or gzip-compressed by the harness (option 0), loaded with WordEmbeddings::load
// as train and stats load them, then looked up and laid out for a vocabulary as the trainer does.
#include "core/data/Vocabulary.h"
#include "core/data/WordEmbeddings.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/Gzipped.h"
#include "fuzz/support/ScratchFolder.h"


#include <cmath>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 1);
    const bool gz = in.choice(0, 2) == 1;
    const auto path = fuzz::ScratchFolder::instance().write(gz ? "vectors.txt.gz" : "vectors.txt",
                                                            gz ? fuzz::gzipped(in.body()) : in.body());
    WordEmbeddings::LoadOptions options;
    options.useCache = false; // every input is new: a cache would only fill the disk
    fuzz::CleanFailure::expect([&] {
        const auto embeddings = WordEmbeddings::load(path, options);
        Vocabulary vocabulary;
        for (std::size_t i = 0; i < embeddings.size() && i < 8; ++i) {
            const auto& word = embeddings.words()[i];
            if (!embeddings.lookup(word))
                __builtin_trap(); // a word the file has must be found
            vocabulary.add(word);
        }
        vocabulary.add("UNSEEN-word");
        std::int64_t found = 0;
        const auto rows = embeddings.matrixFor(vocabulary, 0.25, 1, &found);
        if (rows.size() != static_cast<std::size_t>(vocabulary.size() * embeddings.dimension()))
            __builtin_trap();
        for (float v : rows)
            if (!std::isfinite(v))
                __builtin_trap(); // a non-finite vector loaded without an error would only show up as a NaN loss
    });
    return 0;
}
