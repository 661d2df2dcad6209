#pragma once
#include "core/data/TextExample.h"
#include "core/data/Vocabulary.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

// Pre-trained word vectors from a file a user points at: GloVe text (no header), word2vec text and
// fastText .vec (a "count dim" header line), word2vec binary; any of them gzip-compressed. The format is
// detected from the content. A malformed line (a value that is not a number, a wrong number of values)
// is a DataError naming file and line.
// A binary cache keyed by the file's sha256 makes every load after the first a plain read of floats
// (docs/BENCHMARKS.md); a damaged cache file is ignored and rewritten.
class WordEmbeddings {
public:
    struct LoadOptions {
        bool useCache = true;
        std::string cacheDir; // "" = defaultCacheDir()
    };
    struct LoadReport {
        std::string format;     // glove-text | word2vec-text | word2vec-binary
        bool fromCache = false;
        double seconds = 0.0;   // wall time of the whole load, hashing included
        std::string sha256;     // of the file as stored (compressed or not)
        std::string cacheFile;
    };
    struct Coverage {
        std::int64_t types = 0, typesCovered = 0, tokens = 0, tokensCovered = 0;
        double typeRate() const { return types ? static_cast<double>(typesCovered) / types : 0.0; }
        double tokenRate() const { return tokens ? static_cast<double>(tokensCovered) / tokens : 0.0; }
    };

    static WordEmbeddings load(const std::string& path, const LoadOptions& options);
    static WordEmbeddings load(const std::string& path) { return load(path, LoadOptions{}); }
    // $ATTNLAB_CACHE_DIR, else ($XDG_CACHE_HOME or ~/.cache)/attnlab/embeddings.
    static std::string defaultCacheDir();

    int dimension() const { return dimension_; }
    std::size_t size() const { return words_.size(); }
    const std::vector<std::string>& words() const { return words_; }
    const LoadReport& report() const { return report_; }

    const float* find(const std::string& word) const;   // exact match, else nullptr
    const float* lookup(const std::string& word) const; // exact, then lowercase (GloVe 6B is uncased)

    Coverage coverage(const std::vector<const std::vector<TextExample>*>& splits) const;
    // Rows in vocabulary id order [vocabulary.size() x dimension()]: the file's vector where lookup() finds
    // one, else uniform in [-oovRange, oovRange] (reproducible by seed); the padding row is zero.
    std::vector<float> matrixFor(const Vocabulary& vocabulary, double oovRange, std::uint64_t seed,
                                 std::int64_t* found = nullptr) const;

private:
    void index();
    std::vector<std::string> words_;
    std::vector<float> values_; // size() x dimension_, row-major
    std::unordered_map<std::string, std::int32_t> ids_;
    int dimension_ = 0;
    LoadReport report_;
    friend class EmbeddingFileParser;
    friend class EmbeddingCache;
};

} // namespace attnlab
