// Word vectors a user points at (GloVe / word2vec / fastText text, word2vec binary; the format is detected
// from the content), raw or gzip-compressed by the harness (option 0), loaded with WordEmbeddings::load
// as train and stats load them, then looked up and laid out for a vocabulary as the trainer does.
#include "core/data/Vocabulary.h"
#include "core/data/WordEmbeddings.h"
#include "fuzz/support/CleanFailure.h"
#include "fuzz/support/FuzzInput.h"
#include "fuzz/support/ScratchFolder.h"

#include <zlib.h>

#include <cmath>

using namespace attnlab;

namespace {

std::string gzipped(const std::string& bytes)
{
    z_stream z{};
    deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY); // 15 + 16: gzip wrapper
    std::string out(deflateBound(&z, bytes.size()) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const fuzz::FuzzInput in(data, size, 1);
    const bool gz = in.choice(0, 2) == 1;
    const auto path = fuzz::ScratchFolder::instance().write(gz ? "vectors.txt.gz" : "vectors.txt",
                                                            gz ? gzipped(in.body()) : in.body());
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
