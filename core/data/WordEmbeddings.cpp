#include "core/data/WordEmbeddings.h"
#include "core/platform/AtomicFile.h"
#include "core/platform/FileInfo.h"
#include "core/platform/MappedFile.h"
#include "core/platform/UserFolders.h"

#include "core/data/DataError.h"
#include "core/data/GzipInput.h"
#include "core/data/install/Sha256.h"
#include "core/data/Tokenizer.h"


#include <charconv>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <filesystem>
#include <memory>
#include <unordered_set>

namespace attnlab {

class EmbeddingFileParser {
public:
    static void parse(const std::string& path, WordEmbeddings& e)
    {
        GzipInput in(path, "the embeddings file");
        std::string first;
        if (!in.readLine(first))
            throw DataError(path, 1, "the embeddings file is empty");
        long long count = 0, dim = 0;
        if (headerLine(first, count, dim)) {
            // word2vec / fastText: the header gives the size. Binary rows follow when the next bytes are
            // not text (float bytes almost always include control characters).
            const std::string ahead = in.lookahead(4096);
            bool binary = false;
            for (unsigned char c : ahead)
                if (c < 0x09 || (c > 0x0d && c < 0x20)) { binary = true; break; }
            if (dim > kMaxDimension)
                throw DataError(path, 1, "the header gives " + std::to_string(dim) + " dimensions; at most " +
                                             std::to_string(kMaxDimension) + " are supported");
            e.dimension_ = static_cast<int>(dim);
            if (binary) {
                e.report_.format = "word2vec-binary";
                parseBinary(in, path, count, e);
            } else {
                e.report_.format = "word2vec-text";
                parseText(in, path, "", 2, e);
            }
        } else {
            e.report_.format = "glove-text";
            parseText(in, path, first, 1, e);
        }
        if (e.words_.empty())
            throw DataError(path, 0, "no vectors in the file");
    }

private:
    // Real vectors have at most a few thousand dimensions; a header beyond this is not a header to trust.
    static constexpr long long kMaxDimension = 1 << 16;

    static bool headerLine(const std::string& line, long long& count, long long& dim)
    {
        char* end = nullptr;
        count = std::strtoll(line.c_str(), &end, 10);
        if (end == line.c_str() || *end != ' ') return false;
        const char* next = end + 1;
        dim = std::strtoll(next, &end, 10);
        if (end == next) return false;
        while (*end == ' ') ++end;
        return *end == '\0' && count > 0 && dim > 0;
    }

    static void parseText(GzipInput& in, const std::string& path, std::string pending, int lineNumber, WordEmbeddings& e)
    {
        std::string line = std::move(pending);
        bool have = !line.empty();
        int expected = e.dimension_;
        int expectedFrom = 0;
        std::vector<float> row;
        while (have || in.readLine(line)) {
            have = false;
            if (line.empty() || line.find_first_not_of(' ') == std::string::npos) { ++lineNumber; continue; }
            const auto space = line.find(' ');
            if (space == std::string::npos || space == 0)
                throw DataError(path, lineNumber, "expected a word followed by numbers");
            row.clear();
            const char* p = line.data() + space;
            const char* end = line.data() + line.size();
            while (p < end) {
                while (p < end && *p == ' ') ++p;
                if (p == end) break;
                float v = 0;
                auto [next, ec] = std::from_chars(p, end, v);
                if (ec != std::errc() || (next < end && *next != ' ')) {
                    const char* stop = static_cast<const char*>(std::memchr(p, ' ', static_cast<std::size_t>(end - p)));
                    throw DataError(path, lineNumber, "value '" + std::string(p, stop ? stop : end) + "' is not a number");
                }
                if (!std::isfinite(v)) // from_chars reads "inf" and "nan"; either turns every loss into NaN
                    throw DataError(path, lineNumber, "value '" + std::string(p, next) + "' is not a finite number");
                row.push_back(v);
                p = next;
            }
            if (row.empty()) // "word " with a trailing space and no numbers would make vectors of width 0
                throw DataError(path, lineNumber, "expected a word followed by numbers");
            if (static_cast<long long>(row.size()) > kMaxDimension)
                throw DataError(path, lineNumber, std::to_string(row.size()) + " values; at most " +
                                                      std::to_string(kMaxDimension) + " dimensions are supported");
            if (expected == 0) { expected = static_cast<int>(row.size()); expectedFrom = lineNumber; }
            if (static_cast<int>(row.size()) != expected)
                throw DataError(path, lineNumber, std::to_string(row.size()) + " values, expected " + std::to_string(expected) +
                                                      (expectedFrom ? " (as on line " + std::to_string(expectedFrom) + ")" : " (the header's dimension)"));
            e.words_.emplace_back(line, 0, space);
            e.values_.insert(e.values_.end(), row.begin(), row.end());
            ++lineNumber;
        }
        e.dimension_ = expected;
    }

    static void parseBinary(GzipInput& in, const std::string& path, long long count, WordEmbeddings& e)
    {
        const auto dim = static_cast<std::size_t>(e.dimension_);
        // The header's count is only a claim: storage grows with the vectors actually read, so a damaged
        // or hostile header ("99999999999 300") is a clear error at the end of the file, not an allocation
        // of terabytes.
        std::vector<float> row(dim);
        std::string word;
        for (long long i = 0; i < count; ++i) {
            word.clear();
            int c;
            while ((c = in.get()) == '\n' || c == ' ') {}
            while (c != -1 && c != ' ') { word += static_cast<char>(c); c = in.get(); }
            if (c == -1)
                throw DataError(path, 0, "the binary file ends after " + std::to_string(i) + " of the header's " +
                                             std::to_string(count) + " vectors");
            if (!in.readBytes(reinterpret_cast<char*>(row.data()), dim * sizeof(float)))
                throw DataError(path, 0, "vector " + std::to_string(i + 1) + " ('" + word + "') is cut short: expected " +
                                             std::to_string(dim) + " floats");
            for (float v : row)
                if (!std::isfinite(v))
                    throw DataError(path, 0, "vector " + std::to_string(i + 1) + " ('" + word + "') holds a value that is not "
                                                 "a finite number (" + std::to_string(v) + ")");
            e.words_.push_back(word);
            e.values_.insert(e.values_.end(), row.begin(), row.end());
        }
    }
};

// The binary cache: "ATTNEMB1", dimension, count, format, words (length-prefixed), then the floats.
class EmbeddingCache {
public:
    static bool read(const std::string& file, WordEmbeddings& e)
    {
        // Mapped rather than read: the floats are copied once, straight into place.
        std::unique_ptr<MappedFile> mapped;
        try {
            mapped = std::make_unique<MappedFile>(file);
        } catch (const MappedFile::Failure&) { // no cache yet, or one that cannot be read: parse the source
            return false;
        }
        if (mapped->size() == 0) return false;
        return parse(reinterpret_cast<const char*>(mapped->data()), mapped->size(), e);
    }

    static bool parse(const char* data, std::size_t size, WordEmbeddings& e)
    {
        std::size_t pos = 0;
        auto take = [&](void* out, std::size_t n) {
            if (pos + n > size) return false;
            std::memcpy(out, data + pos, n);
            pos += n;
            return true;
        };
        char magic[8];
        std::uint32_t dim = 0, formatLength = 0;
        std::uint64_t count = 0;
        if (!take(magic, 8) || std::memcmp(magic, "ATTNEMB1", 8) != 0 || !take(&dim, 4) || !take(&count, 8) ||
            !take(&formatLength, 4) || formatLength > 64 || pos + formatLength > size || count > size)
            return false;
        e.report_.format.assign(data + pos, formatLength);
        pos += formatLength;
        e.words_.clear();
        e.words_.reserve(count);
        for (std::uint64_t i = 0; i < count; ++i) {
            std::uint32_t n = 0;
            if (!take(&n, 4) || pos + n > size) return false;
            e.words_.emplace_back(data + pos, n);
            pos += n;
        }
        if (size - pos != count * dim * sizeof(float)) return false;
        e.values_.resize(count * dim);
        take(e.values_.data(), e.values_.size() * sizeof(float));
        e.dimension_ = static_cast<int>(dim);
        return true;
    }

    static void write(const std::string& file, const WordEmbeddings& e)
    {
        // Whole or not at all (AtomicFile): a reader never sees half a cache. A cache that cannot be written is
        // only slower: no error.
        try {
            AtomicFile f(file);
            const std::uint32_t dim = static_cast<std::uint32_t>(e.dimension_);
            const std::uint64_t count = e.words_.size();
            const auto formatLength = static_cast<std::uint32_t>(e.report_.format.size());
            f.write("ATTNEMB1", 8);
            f.write(&dim, 4);
            f.write(&count, 8);
            f.write(&formatLength, 4);
            f.write(e.report_.format);
            for (const auto& w : e.words_) {
                const auto n = static_cast<std::uint32_t>(w.size());
                f.write(&n, 4);
                f.write(w);
            }
            f.write(e.values_.data(), e.values_.size() * sizeof(float));
            f.commit();
        } catch (const std::system_error&) {
        }
    }
};

namespace {

void makeDirectories(const std::string& dir)
{
    std::error_code ignored; // a folder that cannot be made shows as a cache that cannot be written
    std::filesystem::create_directories(dir, ignored);
}

// The file's sha256, remembered per (path, size, modification time) in the cache folder so that an
// unchanged file is not read twice per load; any change to the file means hashing it again.
std::string fileHash(const std::string& path, const FileInfo& info, const std::string& cacheDir)
{
    const std::string stamp = std::to_string(info.size()) + " " + std::to_string(info.modifiedSeconds()) + "." +
                              std::to_string(info.modifiedNanoseconds());
    const std::string keyFile = cacheDir + "/" + Sha256::ofText(path) + ".key";
    if (std::FILE* f = std::fopen(keyFile.c_str(), "rb")) {
        char buffer[256] = {};
        const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
        std::fclose(f);
        const std::string text(buffer, n);
        const auto space = text.rfind(' ');
        if (space != std::string::npos && text.substr(0, space) == stamp && text.size() - space - 1 == 64)
            return text.substr(space + 1);
    }
    const std::string hash = Sha256::ofFile(path);
    try {
        AtomicFile::replace(keyFile, stamp + " " + hash);
    } catch (const std::system_error&) { // no remembered hash is only slower
    }
    return hash;
}

} // namespace

std::string WordEmbeddings::defaultCacheDir()
{
    if (const char* env = std::getenv("ATTNLAB_CACHE_DIR"); env && *env)
        return env;
    const std::string base = UserFolders::cache();
    return (base.empty() ? "./.cache" : base) + "/attnlab/embeddings";
}

WordEmbeddings WordEmbeddings::load(const std::string& path, const LoadOptions& options)
{
    const auto started = std::chrono::steady_clock::now();
    WordEmbeddings e;
    const FileInfo info = FileInfo::of(path);
    if (!info.isRegular())
        throw DataError(path, 0, "cannot open the embeddings file (missing or not a file)");
    if (options.useCache) {
        const std::string dir = options.cacheDir.empty() ? defaultCacheDir() : options.cacheDir;
        makeDirectories(dir);
        e.report_.sha256 = fileHash(path, info, dir);
        e.report_.cacheFile = dir + "/" + e.report_.sha256 + ".attnemb";
        if (EmbeddingCache::read(e.report_.cacheFile, e)) {
            e.report_.fromCache = true;
        } else {
            const LoadReport keys = e.report_;
            e = WordEmbeddings{};
            e.report_.sha256 = keys.sha256;
            e.report_.cacheFile = keys.cacheFile;
            EmbeddingFileParser::parse(path, e);
            EmbeddingCache::write(e.report_.cacheFile, e);
        }
    } else {
        EmbeddingFileParser::parse(path, e);
    }
    e.index();
    e.report_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return e;
}

void WordEmbeddings::index()
{
    ids_.clear();
    ids_.reserve(words_.size());
    for (std::size_t i = 0; i < words_.size(); ++i)
        ids_.emplace(words_[i], static_cast<std::int32_t>(i)); // the first occurrence wins
}

const float* WordEmbeddings::find(const std::string& word) const
{
    auto it = ids_.find(word);
    return it == ids_.end() ? nullptr : values_.data() + static_cast<std::size_t>(it->second) * dimension_;
}

const float* WordEmbeddings::lookup(const std::string& word) const
{
    if (const float* v = find(word)) return v;
    const std::string lower = Tokenizer::lowercased(word);
    return lower == word ? nullptr : find(lower);
}

WordEmbeddings::Coverage WordEmbeddings::coverage(const std::vector<const std::vector<TextExample>*>& splits) const
{
    Coverage c;
    std::unordered_map<std::string, bool> seen;
    for (const auto* split : splits)
        for (const auto& example : *split)
            for (const auto& token : example.tokens) {
                auto [it, inserted] = seen.emplace(token, false);
                if (inserted) it->second = lookup(token) != nullptr;
                ++c.tokens;
                if (it->second) ++c.tokensCovered;
            }
    c.types = static_cast<std::int64_t>(seen.size());
    for (const auto& [token, covered] : seen)
        if (covered) ++c.typesCovered;
    return c;
}

std::vector<float> WordEmbeddings::matrixFor(const Vocabulary& vocabulary, double oovRange, std::uint64_t seed,
                                             std::int64_t* found) const
{
    const auto rows = static_cast<std::size_t>(vocabulary.size());
    const auto dim = static_cast<std::size_t>(dimension_);
    std::vector<float> m(rows * dim, 0.0f);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> uniform(static_cast<float>(-oovRange), static_cast<float>(oovRange));
    std::int64_t hits = 0;
    for (std::size_t id = 0; id < rows; ++id) {
        if (static_cast<std::int64_t>(id) == Vocabulary::kPad)
            continue;
        float* row = m.data() + id * dim;
        if (const float* v = lookup(vocabulary.token(static_cast<std::int64_t>(id)))) {
            std::memcpy(row, v, dim * sizeof(float));
            ++hits;
        } else {
            for (std::size_t k = 0; k < dim; ++k) row[k] = uniform(rng);
        }
    }
    if (found) *found = hits;
    return m;
}

} // namespace attnlab
