#include "core/data/pretrained/WordPieceTokenizer.h"

#include "core/data/DataError.h"
#include "core/data/pretrained/PretrainedJson.h"
#include "core/data/TextFile.h"

#include <nlohmann/json.hpp>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace attnlab {

namespace {

const char* const kSpecials[] = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};

bool isControl(UChar32 c)
{
    if (c == '\t' || c == '\n' || c == '\r')
        return false;
    switch (u_charType(c)) {
    case U_CONTROL_CHAR: case U_FORMAT_CHAR: case U_PRIVATE_USE_CHAR: case U_SURROGATE: case U_UNASSIGNED:
        return true;
    default:
        return false;
    }
}

bool isChinese(UChar32 c) // the CJK Unified Ideographs blocks BERT pads (not kana or hangul)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

bool isPunctuation(UChar32 c)
{
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126))
        return true; // all ASCII non-alphanumerics ("$", "^", "`") count, though Unicode calls some symbols
    return U_GET_GC_MASK(c) & U_GC_P_MASK;
}

void appendUtf8(std::string& out, UChar32 c)
{
    char buf[4];
    int32_t n = 0;
    UBool error = false;
    U8_APPEND(buf, n, 4, c, error);
    if (!error)
        out.append(buf, static_cast<std::size_t>(n));
}

std::vector<UChar32> decode(const std::string& s, std::size_t from, std::size_t to)
{
    std::vector<UChar32> out;
    const auto* p = reinterpret_cast<const uint8_t*>(s.data());
    int32_t i = static_cast<int32_t>(from);
    const int32_t end = static_cast<int32_t>(to);
    while (i < end) {
        UChar32 c;
        U8_NEXT(p, i, end, c);
        out.push_back(c < 0 ? 0xFFFD : c);
    }
    return out;
}

} // namespace

struct WordPieceTokenizer::Impl {
    Options options;
    std::vector<std::string> vocab;
    std::unordered_map<std::string, int> ids;
    int cls = -1, sep = -1, pad = -1, unk = -1;

    // Steps 2-4 on a stretch of text without special tokens: the normalised code points.
    std::vector<UChar32> normalise(const std::vector<UChar32>& in) const
    {
        icu::UnicodeString s;
        for (UChar32 c : in) {
            if (c == 0 || c == 0xFFFD || isControl(c))
                continue;
            if (u_isUWhiteSpace(c)) {
                s.append(static_cast<UChar32>(' '));
            } else if (options.chineseChars && isChinese(c)) {
                s.append(static_cast<UChar32>(' ')).append(c).append(static_cast<UChar32>(' '));
            } else {
                s.append(c);
            }
        }
        if (options.stripAccents) {
            UErrorCode status = U_ZERO_ERROR;
            const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
            if (U_SUCCESS(status)) {
                icu::UnicodeString decomposed = nfd->normalize(s, status);
                if (U_SUCCESS(status))
                    s = decomposed;
            }
        }
        std::vector<UChar32> out;
        for (int32_t i = 0; i < s.length(); i = s.moveIndex32(i, 1)) {
            const UChar32 c = s.char32At(i);
            if (options.stripAccents && u_charType(c) == U_NON_SPACING_MARK)
                continue;
            if (!options.lowercase) {
                out.push_back(c);
                continue;
            }
            // Full case mapping of this one code point ("İ" has two), no context: as the reference's per-char lowering.
            UChar src[2], dst[8];
            int32_t srcLength = 0;
            UBool error = false;
            U16_APPEND(src, srcLength, 2, c, error);
            UErrorCode status = U_ZERO_ERROR;
            const int32_t n = u_strToLower(dst, 8, src, srcLength, "", &status);
            if (U_FAILURE(status)) {
                out.push_back(c);
                continue;
            }
            for (int32_t k = 0; k < n;) {
                UChar32 lower;
                U16_NEXT(dst, k, n, lower);
                out.push_back(lower);
            }
        }
        return out;
    }

    // Step 6 on one word; appends its pieces.
    void wordPieces(const std::vector<UChar32>& word, int wordIndex, WordPieceEncoding& enc) const
    {
        if (static_cast<int>(word.size()) > options.maxInputChars) {
            enc.ids.push_back(unk), enc.tokens.push_back(vocab[unk]), enc.words.push_back(wordIndex);
            return;
        }
        std::vector<std::string> prefix(word.size() + 1); // UTF-8 of word[0..i)
        for (std::size_t i = 0; i < word.size(); ++i) {
            prefix[i + 1] = prefix[i];
            appendUtf8(prefix[i + 1], word[i]);
        }
        std::vector<int> found;
        std::size_t start = 0;
        while (start < word.size()) {
            int id = -1;
            std::size_t end = word.size();
            for (; end > start; --end) {
                std::string piece = (start > 0 ? "##" : "") + prefix[end].substr(prefix[start].size());
                const auto it = ids.find(piece);
                if (it != ids.end()) {
                    id = it->second;
                    break;
                }
            }
            if (id < 0) { // one piece missing: the whole word is unknown
                enc.ids.push_back(unk), enc.tokens.push_back(vocab[unk]), enc.words.push_back(wordIndex);
                return;
            }
            found.push_back(id);
            start = end;
        }
        for (int id : found)
            enc.ids.push_back(id), enc.tokens.push_back(vocab[id]), enc.words.push_back(wordIndex);
    }
};

WordPieceTokenizer::WordPieceTokenizer(const std::string& vocabPath, const Options& options)
    // TextFile: LF or CRLF, every line checked to be UTF-8 (a bad byte named with its line).
    : WordPieceTokenizer(TextFile::readLines(vocabPath), options, vocabPath)
{
}

WordPieceTokenizer::WordPieceTokenizer(const std::vector<std::string>& lines, const Options& options, const std::string& vocabPath)
    : impl_(std::make_unique<Impl>())
{
    impl_->options = options;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        const int number = static_cast<int>(i) + 1;
        if (line.empty())
            throw DataError(vocabPath, number, "empty vocabulary entry");
        if (!impl_->ids.emplace(line, static_cast<int>(impl_->vocab.size())).second)
            throw DataError(vocabPath, number, "\"" + line + "\" is already entry " + std::to_string(impl_->ids[line]));
        impl_->vocab.push_back(line);
    }
    auto need = [&](const char* token) {
        const int id = idOf(token);
        if (id < 0)
            throw DataError(vocabPath, 0, std::string("no ") + token + " entry: not a BERT vocabulary");
        return id;
    };
    impl_->unk = need("[UNK]");
    impl_->cls = need("[CLS]");
    impl_->sep = need("[SEP]");
    impl_->pad = idOf("[PAD]");
}

WordPieceTokenizer WordPieceTokenizer::fromFolder(const std::string& folder)
{
    Options options;
    const std::string configPath = (std::filesystem::path(folder) / "tokenizer_config.json").string();
    if (std::filesystem::exists(configPath)) {
        std::ifstream in(configPath);
        std::stringstream text;
        text << in.rdbuf();
        const nlohmann::json j = PretrainedJson::parse(text.str(), configPath);
        if (!j.is_object())
            throw DataError(configPath, 0, "not a JSON object");
        auto flag = [&](const char* key, bool fallback) {
            if (!j.contains(key) || j[key].is_null())
                return fallback;
            if (!j[key].is_boolean())
                throw DataError(configPath, 0, std::string(key) + " is " + j[key].dump() + ", not true or false");
            return j[key].get<bool>();
        };
        options.lowercase = flag("do_lower_case", true);
        options.stripAccents = flag("strip_accents", options.lowercase);
        options.chineseChars = flag("tokenize_chinese_chars", true);
    }
    return WordPieceTokenizer((std::filesystem::path(folder) / "vocab.txt").string(), options);
}

WordPieceTokenizer::~WordPieceTokenizer() = default;
WordPieceTokenizer::WordPieceTokenizer(WordPieceTokenizer&&) noexcept = default;
WordPieceTokenizer& WordPieceTokenizer::operator=(WordPieceTokenizer&&) noexcept = default;

WordPieceEncoding WordPieceTokenizer::encode(const std::string& text, int maxLength) const
{
    WordPieceEncoding enc;
    enc.ids.push_back(impl_->cls), enc.tokens.push_back(impl_->vocab[impl_->cls]), enc.words.push_back(-1);
    // Step 1: the leftmost (then longest) special token written in the text splits it.
    std::size_t at = 0;
    while (at <= text.size()) {
        std::size_t next = std::string::npos, length = 0;
        for (const char* special : kSpecials) {
            if (idOf(special) < 0)
                continue;
            const std::size_t p = text.find(special, at);
            const std::size_t n = std::char_traits<char>::length(special);
            if (p != std::string::npos && (p < next || (p == next && n > length)))
                next = p, length = n;
        }
        const std::size_t stretchEnd = next == std::string::npos ? text.size() : next;
        const auto normalised = impl_->normalise(decode(text, at, stretchEnd));
        // Step 5: words at white space and around each punctuation character.
        std::vector<UChar32> word;
        auto flush = [&] {
            if (word.empty())
                return;
            std::string utf8;
            for (UChar32 c : word)
                appendUtf8(utf8, c);
            const int index = static_cast<int>(enc.wordTexts.size());
            enc.wordTexts.push_back(utf8);
            impl_->wordPieces(word, index, enc);
            word.clear();
        };
        for (UChar32 c : normalised) {
            if (u_isUWhiteSpace(c)) {
                flush();
            } else if (isPunctuation(c)) {
                flush();
                word.push_back(c);
                flush();
            } else {
                word.push_back(c);
            }
        }
        flush();
        if (next == std::string::npos)
            break;
        const std::string special = text.substr(next, length);
        enc.ids.push_back(idOf(special)), enc.tokens.push_back(special), enc.words.push_back(-1);
        at = next + length;
    }
    if (maxLength > 0 && static_cast<int>(enc.ids.size()) + 1 > maxLength) {
        const int keep = std::max(1, maxLength - 1);
        enc.truncated = static_cast<int>(enc.ids.size()) - keep;
        enc.ids.resize(keep), enc.tokens.resize(keep), enc.words.resize(keep);
    }
    enc.ids.push_back(impl_->sep), enc.tokens.push_back(impl_->vocab[impl_->sep]), enc.words.push_back(-1);
    return enc;
}

int WordPieceTokenizer::size() const { return static_cast<int>(impl_->vocab.size()); }
int WordPieceTokenizer::idOf(const std::string& token) const
{
    const auto it = impl_->ids.find(token);
    return it == impl_->ids.end() ? -1 : it->second;
}
const std::string& WordPieceTokenizer::tokenOf(int id) const { return impl_->vocab.at(static_cast<std::size_t>(id)); }
int WordPieceTokenizer::clsId() const { return impl_->cls; }
int WordPieceTokenizer::sepId() const { return impl_->sep; }
int WordPieceTokenizer::padId() const { return impl_->pad; }
int WordPieceTokenizer::unkId() const { return impl_->unk; }
const WordPieceTokenizer::Options& WordPieceTokenizer::options() const { return impl_->options; }

} // namespace attnlab
