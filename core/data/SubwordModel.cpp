#include "core/data/SubwordModel.h"

#include "core/data/SentencePieceShim.h"
#include "core/platform/ExecutablePath.h"
#include "core/platform/SharedLibrary.h"

#include <openssl/evp.h>

#include <cstdlib>
#include <cstring>
#include <vector>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace attnlab {
namespace {

// SentencePiece through its C shim: linked in (ATTNLAB_SENTENCEPIECE_LINKED: the fuzzers, which have no
// LibTorch and so no second protobuf), or else the shim module loaded apart from the process (SentencePieceShim.h
// says why), found at ATTNLAB_SENTENCEPIECE_MODULE, where the package installs it, or where the build left it.
struct SentencePieceApi {
    decltype(&attnlab_spm_train) train = nullptr;
    decltype(&attnlab_spm_load) load = nullptr;
    decltype(&attnlab_spm_encode) encode = nullptr;
    decltype(&attnlab_spm_size) size = nullptr;
    decltype(&attnlab_spm_pieces) pieces = nullptr;
    decltype(&attnlab_spm_close) close = nullptr;
    decltype(&attnlab_spm_free) free = nullptr;
};

const SentencePieceApi& sentencePiece()
{
    static std::once_flag once;
    static SentencePieceApi api;
    static std::string problem;
    std::call_once(once, [] {
#ifdef ATTNLAB_SENTENCEPIECE_LINKED
        api = {&attnlab_spm_train, &attnlab_spm_load, &attnlab_spm_encode, &attnlab_spm_size, &attnlab_spm_pieces, &attnlab_spm_close,
               &attnlab_spm_free};
#else
        std::vector<std::string> candidates;
        if (const char* env = std::getenv("ATTNLAB_SENTENCEPIECE_MODULE"); env && *env)
            candidates.push_back(env);
        if (const auto folder = ExecutablePath::folder(); !folder.empty())
            candidates.push_back(folder + "/" + ATTNLAB_SENTENCEPIECE_INSTALLED); // bin/../lib/attnlab/, where the package puts it
        candidates.push_back(ATTNLAB_SENTENCEPIECE_BUILT);
        for (const auto& path : candidates) {
            try {
                static std::unique_ptr<SharedLibrary> library;
                library = std::make_unique<SharedLibrary>(path, true);
                api.train = reinterpret_cast<decltype(api.train)>(library->symbol("attnlab_spm_train"));
                api.load = reinterpret_cast<decltype(api.load)>(library->symbol("attnlab_spm_load"));
                api.encode = reinterpret_cast<decltype(api.encode)>(library->symbol("attnlab_spm_encode"));
                api.size = reinterpret_cast<decltype(api.size)>(library->symbol("attnlab_spm_size"));
                api.pieces = reinterpret_cast<decltype(api.pieces)>(library->symbol("attnlab_spm_pieces"));
                api.close = reinterpret_cast<decltype(api.close)>(library->symbol("attnlab_spm_close"));
                api.free = reinterpret_cast<decltype(api.free)>(library->symbol("attnlab_spm_free"));
                problem.clear();
                return;
            } catch (const std::exception& e) {
                api = {};
                if (problem.empty())
                    problem = e.what();
            }
        }
#endif
    });
    if (!api.train)
        throw std::runtime_error("subwords: SentencePiece is not available in this build (" + problem +
                                 "); hint: words need no subword model (leave subwords empty)");
    return api;
}

// The '\0'-ended strings of a shim's buffer.
std::vector<std::string> stringsOf(const char* joined, std::size_t size)
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < size;) {
        const char* start = joined + i;
        const void* nul = std::memchr(start, '\0', size - i);
        const std::size_t length = nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - start) : size - i;
        out.emplace_back(start, length);
        i += length + 1;
    }
    return out;
}

// A buffer the shim allocated, given back to it.
struct ShimBuffer {
    char* data = nullptr;
    ~ShimBuffer()
    {
        if (data)
            sentencePiece().free(data);
    }
};

// Base64 by OpenSSL (already linked for sha256), so a model fits a JSON string.
std::string base64(const std::string& bytes)
{
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::string unbase64(const std::string& text, const std::string& where)
{
    if (text.size() % 4 != 0)
        throw std::runtime_error(where + ": its subword model is not base64 text (" + std::to_string(text.size()) + " characters, not a multiple of 4)");
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    if (n < 0)
        throw std::runtime_error(where + ": its subword model is not base64 text");
    std::size_t padding = 0; // EVP_DecodeBlock counts the bytes '=' stands for
    for (auto it = text.rbegin(); it != text.rend() && *it == '=' && padding < 2; ++it)
        ++padding;
    out.resize(static_cast<std::size_t>(n) - padding);
    return out;
}

} // namespace

struct SubwordModel::Impl {
    void* processor = nullptr;
    std::string serialized;
    std::string kind;
    ~Impl()
    {
        if (processor)
            sentencePiece().close(processor);
    }
};

SubwordModel::SubwordModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SubwordModel::SubwordModel(SubwordModel&&) noexcept = default;
SubwordModel& SubwordModel::operator=(SubwordModel&&) noexcept = default;
SubwordModel::~SubwordModel() = default;

SubwordModel SubwordModel::train(const std::vector<std::string>& sentences, const std::string& kind, int vocabularySize)
{
    if (!isKind(kind))
        throw std::invalid_argument("subwords: '" + kind + "' is not a SentencePiece model type (bpe | unigram)");
    if (vocabularySize < 8)
        throw std::invalid_argument("subword_vocabulary: " + std::to_string(vocabularySize) + " pieces is too few (at least 8)");
    if (sentences.empty())
        throw std::invalid_argument("subwords: no training sentences to learn pieces from");
    // Every character kept (coverage 1: Multi30k's umlauts and accents are its words), no normalisation (the
    // text comes back as it was), one thread (the same pieces every time), no control symbols of its own (the
    // run's vocabulary has <pad> <unk> <bos> <eos>), the size a soft limit (a small corpus has fewer pieces).
    const std::vector<std::pair<std::string, std::string>> args{
        {"model_type", kind},
        {"vocab_size", std::to_string(vocabularySize)},
        {"hard_vocab_limit", "false"},
        {"character_coverage", "1.0"},
        {"normalization_rule_name", "identity"},
        {"byte_fallback", "false"},
        {"num_threads", "1"},
        {"input_sentence_size", "0"},
        {"shuffle_input_sentence", "false"},
        {"max_sentence_length", "65536"},
        {"bos_id", "-1"},
        {"eos_id", "-1"},
        {"pad_id", "-1"},
        {"unk_id", "0"},
        {"minloglevel", "2"}, // SentencePiece reports every training round on stderr otherwise
    };
    const auto& api = sentencePiece();
    std::vector<const char*> keys, values, texts;
    std::vector<std::size_t> lengths;
    for (const auto& [k, v] : args) {
        keys.push_back(k.c_str());
        values.push_back(v.c_str());
    }
    for (const auto& sentence : sentences) {
        texts.push_back(sentence.data());
        lengths.push_back(sentence.size());
    }
    ShimBuffer model, error;
    std::size_t modelSize = 0;
    if (api.train(texts.data(), lengths.data(), texts.size(), keys.data(), values.data(), keys.size(), &model.data, &modelSize, &error.data) != 0) {
        const std::string reason = error.data ? error.data : "no reason given";
        if (reason.find("required_chars") != std::string::npos)
            throw std::invalid_argument("subword_vocabulary: " + std::to_string(vocabularySize) +
                                        " pieces is fewer than the training text's distinct characters (" + reason + ")");
        throw std::runtime_error("subwords: SentencePiece could not learn a " + kind + " model (" + reason + ")");
    }
    return fromSerialized(std::string(model.data, modelSize), kind, "subwords: the model SentencePiece learnt");
}

SubwordModel SubwordModel::fromSerialized(const std::string& bytes, const std::string& kind, const std::string& where)
{
    if (!isKind(kind))
        throw std::runtime_error(where + ": '" + kind + "' is not a subword model type (bpe | unigram)");
    const auto& api = sentencePiece();
    auto impl = std::make_unique<Impl>();
    ShimBuffer error;
    impl->processor = api.load(bytes.data(), bytes.size(), &error.data);
    if (!impl->processor)
        throw std::runtime_error(where + ": its subword model does not load (" + std::string(error.data ? error.data : "no reason given") + ")");
    if (api.size(impl->processor) < 2)
        throw std::runtime_error(where + ": its subword model has no pieces");
    impl->serialized = bytes;
    impl->kind = kind;
    return SubwordModel(std::move(impl));
}

SubwordModel SubwordModel::fromText(const std::string& text, const std::string& kind, const std::string& where)
{
    return fromSerialized(unbase64(text, where), kind, where);
}

std::vector<std::string> SubwordModel::encode(const std::string& text) const
{
    ShimBuffer joined, error;
    std::size_t size = 0;
    if (sentencePiece().encode(impl_->processor, text.data(), text.size(), &joined.data, &size, &error.data) != 0)
        throw std::runtime_error("subwords: a sentence could not be split into pieces (" + std::string(error.data ? error.data : "no reason given") + ")");
    return stringsOf(joined.data, size);
}

std::vector<std::string> SubwordModel::pieces() const
{
    ShimBuffer joined, error;
    std::size_t size = 0;
    if (sentencePiece().pieces(impl_->processor, &joined.data, &size, &error.data) != 0)
        throw std::runtime_error("subwords: the model's pieces could not be listed (" + std::string(error.data ? error.data : "no reason given") + ")");
    return stringsOf(joined.data, size);
}

std::string SubwordModel::decode(const std::vector<std::string>& pieces)
{
    static const std::string kSpace = "\xE2\x96\x81"; // U+2581, SentencePiece's word-start mark
    std::string joined;
    for (const auto& p : pieces)
        joined += p;
    std::string text;
    for (std::size_t i = 0; i < joined.size();) {
        if (joined.compare(i, kSpace.size(), kSpace) == 0) {
            if (!text.empty() && text.back() != ' ')
                text += ' ';
            i += kSpace.size();
        } else
            text += joined[i++];
    }
    while (!text.empty() && text.back() == ' ')
        text.pop_back();
    return text;
}

int SubwordModel::size() const { return sentencePiece().size(impl_->processor); }

std::string SubwordModel::kind() const { return impl_->kind; }

std::string SubwordModel::serialized() const { return impl_->serialized; }
std::string SubwordModel::toText() const { return base64(impl_->serialized); }

} // namespace attnlab
