#include "core/data/pretrained/ByteLevelBpeTokenizer.h"

#include "core/data/DataError.h"

#include <unicode/regex.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace attnlab {

namespace {

// GPT-2's pattern (step 3), as `tokenizers`' ByteLevel writes it. ICU's \s is Unicode White_Space, as
// Oniguruma's (the reference's engine) is: U+0085, U+00A0 and U+3000 are white space, U+200B is not.
const char16_t* const kPattern = u"'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

constexpr int kControl = 3, kUserDefined = 4;

// GPT-2's byte alphabet (its bytes_to_unicode): the printable bytes 33-126, 161-172 and 174-255 stand for
// themselves; the other 68 (controls, space, 127-160, the soft hyphen 173) become U+0100, U+0101, ... in byte
// order, so every byte is one visible character and a vocabulary string never holds a space or a control.
struct ByteAlphabet {
    std::array<UChar32, 256> codePoint {};
    std::array<std::string, 256> utf8; // each byte's character, as the vocabulary's strings hold it
    std::array<int, 256 + 68> byteOf {}; // the reverse, by code point; -1 for none

    ByteAlphabet()
    {
        byteOf.fill(-1);
        int extra = 0;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
            codePoint[b] = printable ? b : 256 + extra++;
            byteOf[static_cast<std::size_t>(codePoint[b])] = b;
            char buf[4];
            int32_t n = 0;
            U8_APPEND_UNSAFE(buf, n, codePoint[b]); // below U+0144: two bytes at most
            utf8[b].assign(buf, static_cast<std::size_t>(n));
        }
    }
};

const ByteAlphabet& alphabet()
{
    static const ByteAlphabet a;
    return a;
}

bool isNumber(UChar32 c) // \p{N}: Nd, Nl, No, as the reference's char::is_numeric
{
    return (U_GET_GC_MASK(c) & U_GC_N_MASK) != 0;
}

std::uint64_t pairKey(int a, int b)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

} // namespace

struct ByteLevelBpeTokenizer::Impl {
    std::string source;
    std::vector<std::string> vocab;
    std::vector<int> types;
    std::unordered_map<std::string, int> ids;
    std::vector<std::string> pieces; // each id's bytes, as decode writes them
    std::array<int, 256> byteIds {}; // each byte's single-character token; -1 if none
    std::unordered_map<std::uint64_t, std::pair<int, int>> merges; // (left, right) -> (rank, result)
    std::vector<int> specials; // ids of types 3 and 4, longest first
    std::unique_ptr<icu::RegexPattern> pattern; // immutable: matchers made from it in each call

    void checkId(int id) const
    {
        if (id < 0 || id >= static_cast<int>(vocab.size()))
            throw std::out_of_range("token id " + std::to_string(id) + " is not in the vocabulary of " +
                                    std::to_string(vocab.size()) + " tokens");
    }

    void push(BpeEncoding& enc, const std::string& text, int id, int begin, int end) const
    {
        enc.ids.push_back(id);
        enc.tokens.push_back(vocab[static_cast<std::size_t>(id)]);
        enc.pieces.push_back(text.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin)));
        enc.bytes.emplace_back(begin, end);
    }

    // Step 4 on one chunk, text[begin, end). A symbol is a run of the chunk's bytes; merging keeps the left one
    // and empties the right. The queue holds candidate merges by (rank, left symbol), so the lowest rank goes
    // first and the leftmost of equal ranks, as the reference's queue does; an entry whose symbols have changed
    // since it was pushed is skipped when it comes up.
    void bpe(const std::string& text, int begin, int end, BpeEncoding& enc) const
    {
        const int n = end - begin;
        if (n == 1) {
            const int id = byteIds[static_cast<unsigned char>(text[static_cast<std::size_t>(begin)])];
            if (id >= 0)
                push(enc, text, id, begin, end);
            return;
        }
        struct Symbol {
            int id, begin, end, prev, next;
        };
        std::vector<Symbol> symbols(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            const auto byte = static_cast<unsigned char>(text[static_cast<std::size_t>(begin + i)]);
            const int next = i + 1 < n ? i + 1 : -1;
            symbols[static_cast<std::size_t>(i)] = {byteIds[byte], begin + i, begin + i + 1, i - 1, next};
        }
        using Candidate = std::tuple<int, int, int>; // rank, left symbol, result
        std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> queue;
        auto offer = [&](int left) {
            const Symbol& l = symbols[static_cast<std::size_t>(left)];
            if (l.next < 0)
                return;
            const auto it = merges.find(pairKey(l.id, symbols[static_cast<std::size_t>(l.next)].id));
            if (it != merges.end())
                queue.emplace(it->second.first, left, it->second.second);
        };
        for (int i = 0; i + 1 < n; ++i)
            offer(i);
        while (!queue.empty()) {
            const auto [rank, left, result] = queue.top();
            queue.pop();
            Symbol& l = symbols[static_cast<std::size_t>(left)];
            if (l.begin == l.end || l.next < 0)
                continue; // emptied by an earlier merge, or now the last symbol
            Symbol& r = symbols[static_cast<std::size_t>(l.next)];
            const auto it = merges.find(pairKey(l.id, r.id));
            if (it == merges.end() || it->second.second != result)
                continue; // one of the two has been merged with something else since
            l.id = result;
            l.end = r.end;
            l.next = r.next;
            r.begin = r.end;
            if (l.next >= 0)
                symbols[static_cast<std::size_t>(l.next)].prev = left;
            if (l.prev >= 0)
                offer(l.prev);
            offer(left);
        }
        // Every merge's result is in the vocabulary (the constructor checks it), so only a single byte whose
        // character the vocabulary lacks has no id; the reference, without an unknown token, drops it too.
        for (int i = 0; i >= 0; i = symbols[static_cast<std::size_t>(i)].next) {
            const Symbol& s = symbols[static_cast<std::size_t>(i)];
            if (s.id >= 0)
                push(enc, text, s.id, s.begin, s.end);
        }
    }

    // The pattern's state for one encode call: RegexPattern may be shared by threads, a RegexMatcher may not.
    // The matcher keeps a reference to `run`, so it is declared after it (and goes first).
    struct Scratch {
        icu::UnicodeString run; // code points since the last number, for the pattern
        std::vector<int> offsets; // the byte offset of each of run's UTF-16 units, and of its end
        std::unique_ptr<icu::RegexMatcher> matcher;
    };

    // Steps 2-4 on text[from, to), which holds no special token (or they are read as text).
    void plain(const std::string& text, int from, int to, Scratch& s, BpeEncoding& enc) const
    {
        const auto* p = reinterpret_cast<const uint8_t*>(text.data());
        auto flush = [&](int runEnd) {
            if (s.run.isEmpty())
                return;
            s.offsets.push_back(runEnd);
            auto at = [&](int32_t unit) { return s.offsets[static_cast<std::size_t>(unit)]; };
            UErrorCode status = U_ZERO_ERROR;
            s.matcher->reset(s.run);
            int32_t last = 0;
            // Every character matches one of the pattern's branches, so there are no gaps; one would be a chunk.
            while (s.matcher->find(status) && U_SUCCESS(status)) {
                const int32_t start = s.matcher->start(status), end = s.matcher->end(status);
                if (start > last)
                    bpe(text, at(last), at(start), enc);
                if (end > start)
                    bpe(text, at(start), at(end), enc);
                last = end;
            }
            if (last < s.run.length())
                bpe(text, at(last), runEnd, enc);
            s.run.remove();
            s.offsets.clear();
        };
        int32_t i = from;
        while (i < to) {
            const int32_t start = i;
            UChar32 c;
            U8_NEXT(p, i, to, c); // valid: encode has checked the whole text
            if (isNumber(c)) {
                flush(start);
                bpe(text, start, i, enc);
                continue;
            }
            s.offsets.push_back(start);
            if (c > 0xFFFF)
                s.offsets.push_back(start); // the low surrogate's unit: never a match boundary
            s.run.append(c);
        }
        flush(to);
    }
};

ByteLevelBpeTokenizer::ByteLevelBpeTokenizer(std::vector<std::string> tokens, std::vector<int> types,
                                             const std::vector<std::string>& merges, std::string source)
    : impl_(std::make_unique<Impl>())
{
    Impl& d = *impl_;
    d.source = std::move(source);
    if (!types.empty() && types.size() != tokens.size())
        throw DataError(d.source, 0,
                        std::to_string(types.size()) + " token types for " + std::to_string(tokens.size()) + " tokens");
    if (types.empty())
        types.assign(tokens.size(), 1);
    if (tokens.size() > static_cast<std::size_t>(INT_MAX))
        throw DataError(d.source, 0, "more tokens than an int counts");
    d.vocab = std::move(tokens);
    d.types = std::move(types);
    const ByteAlphabet& a = alphabet();
    d.ids.reserve(d.vocab.size());
    d.pieces.resize(d.vocab.size());
    for (std::size_t i = 0; i < d.vocab.size(); ++i) {
        const std::string& token = d.vocab[i];
        const auto [at, added] = d.ids.emplace(token, static_cast<int>(i));
        if (!added)
            throw DataError(d.source, 0,
                            "token " + std::to_string(i) + " \"" + token + "\" is already token " +
                                std::to_string(at->second));
        const bool special = d.types[i] == kControl || d.types[i] == kUserDefined;
        if (special && !token.empty())
            d.specials.push_back(static_cast<int>(i));
        if (special) {
            d.pieces[i] = token;
            continue;
        }
        // The byte alphabet reversed; a string with a character outside it is its own UTF-8, as the reference's
        // ByteLevel decoder writes it.
        std::string bytes;
        const auto* p = reinterpret_cast<const uint8_t*>(token.data());
        const auto length = static_cast<int32_t>(token.size());
        bool mapped = true;
        for (int32_t k = 0; k < length && mapped;) {
            UChar32 c;
            U8_NEXT(p, k, length, c);
            mapped = c >= 0 && c < static_cast<UChar32>(a.byteOf.size()) && a.byteOf[static_cast<std::size_t>(c)] >= 0;
            if (mapped)
                bytes.push_back(static_cast<char>(a.byteOf[static_cast<std::size_t>(c)]));
        }
        d.pieces[i] = mapped ? bytes : token;
    }
    // Longest first, so that of two special tokens found at one place the longer is taken.
    std::stable_sort(d.specials.begin(), d.specials.end(), [&](int x, int y) {
        return d.vocab[static_cast<std::size_t>(x)].size() > d.vocab[static_cast<std::size_t>(y)].size();
    });
    for (int b = 0; b < 256; ++b) {
        const auto it = d.ids.find(a.utf8[static_cast<std::size_t>(b)]);
        d.byteIds[static_cast<std::size_t>(b)] = it == d.ids.end() ? -1 : it->second;
    }
    d.merges.reserve(merges.size());
    for (std::size_t i = 0; i < merges.size(); ++i) {
        const std::string& merge = merges[i];
        const std::string name = "merge " + std::to_string(i) + " \"" + merge + "\"";
        const std::size_t space = merge.find(' ');
        if (space == std::string::npos || space == 0 || space + 1 == merge.size() ||
            merge.find(' ', space + 1) != std::string::npos)
            throw DataError(d.source, 0, name + " is not two tokens separated by one space");
        const std::string left = merge.substr(0, space), right = merge.substr(space + 1);
        auto need = [&](const std::string& token, const char* what) {
            const int id = idOf(token);
            if (id < 0)
                throw DataError(d.source, 0, name + ": " + what + "\"" + token + "\" is not in the vocabulary");
            return id;
        };
        const int l = need(left, ""), r = need(right, ""), result = need(left + right, "its result ");
        // A pair listed twice keeps its first (lower) rank, as llama.cpp does.
        d.merges.emplace(pairKey(l, r), std::make_pair(static_cast<int>(i), result));
    }
    UErrorCode status = U_ZERO_ERROR;
    UParseError parseError;
    d.pattern.reset(icu::RegexPattern::compile(icu::UnicodeString(kPattern), 0, parseError, status));
    if (U_FAILURE(status) || !d.pattern)
        throw std::logic_error(std::string("ByteLevelBpeTokenizer: ICU cannot compile GPT-2's pattern: ") +
                               u_errorName(status));
}

ByteLevelBpeTokenizer::~ByteLevelBpeTokenizer() = default;
ByteLevelBpeTokenizer::ByteLevelBpeTokenizer(ByteLevelBpeTokenizer&&) noexcept = default;
ByteLevelBpeTokenizer& ByteLevelBpeTokenizer::operator=(ByteLevelBpeTokenizer&&) noexcept = default;

BpeEncoding ByteLevelBpeTokenizer::encode(const std::string& text, bool specialTokens) const
{
    if (text.size() > static_cast<std::size_t>(INT32_MAX))
        throw std::invalid_argument("text: longer than 2 GiB");
    const auto size = static_cast<int32_t>(text.size());
    // The whole text checked first (special tokens are found in its bytes), so the byte named is counted from
    // its start.
    const auto* p = reinterpret_cast<const uint8_t*>(text.data());
    for (int32_t i = 0; i < size;) {
        const int32_t start = i;
        UChar32 c;
        U8_NEXT(p, i, size, c);
        if (c < 0)
            throw std::invalid_argument("text: invalid UTF-8 at byte " + std::to_string(start + 1));
    }
    const Impl& d = *impl_;
    UErrorCode status = U_ZERO_ERROR;
    Impl::Scratch scratch;
    scratch.matcher.reset(d.pattern->matcher(status));
    if (U_FAILURE(status) || !scratch.matcher)
        throw std::runtime_error(std::string("ICU regex matcher: ") + u_errorName(status));
    BpeEncoding enc;
    if (!specialTokens || d.specials.empty()) {
        d.plain(text, 0, size, scratch, enc);
        return enc;
    }
    // Step 1: where each special token next occurs, found again once the text read has passed it.
    std::vector<std::size_t> next(d.specials.size());
    for (std::size_t k = 0; k < d.specials.size(); ++k)
        next[k] = text.find(d.vocab[static_cast<std::size_t>(d.specials[k])]);
    std::size_t at = 0;
    for (;;) {
        std::size_t found = std::string::npos;
        int id = -1;
        for (std::size_t k = 0; k < d.specials.size(); ++k) {
            const std::string& special = d.vocab[static_cast<std::size_t>(d.specials[k])];
            if (next[k] != std::string::npos && next[k] < at)
                next[k] = text.find(special, at);
            if (next[k] < found) // specials are longest first: at one place, the first found is the longest
                found = next[k], id = d.specials[k];
        }
        const auto stretchEnd = static_cast<int32_t>(found == std::string::npos ? text.size() : found);
        d.plain(text, static_cast<int32_t>(at), stretchEnd, scratch, enc);
        if (id < 0)
            break;
        const auto length = static_cast<int>(d.vocab[static_cast<std::size_t>(id)].size());
        d.push(enc, text, id, stretchEnd, stretchEnd + length);
        at = found + static_cast<std::size_t>(length);
    }
    return enc;
}

std::string ByteLevelBpeTokenizer::decode(const std::vector<int>& ids) const
{
    std::string out;
    for (int id : ids) {
        impl_->checkId(id);
        out += impl_->pieces[static_cast<std::size_t>(id)];
    }
    return out;
}

std::string ByteLevelBpeTokenizer::pieceText(int id) const
{
    impl_->checkId(id);
    return impl_->pieces[static_cast<std::size_t>(id)];
}

int ByteLevelBpeTokenizer::size() const
{
    return static_cast<int>(impl_->vocab.size());
}

int ByteLevelBpeTokenizer::idOf(const std::string& token) const
{
    const auto it = impl_->ids.find(token);
    return it == impl_->ids.end() ? -1 : it->second;
}

const std::string& ByteLevelBpeTokenizer::tokenOf(int id) const
{
    impl_->checkId(id);
    return impl_->vocab[static_cast<std::size_t>(id)];
}

bool ByteLevelBpeTokenizer::isSpecial(int id) const
{
    impl_->checkId(id);
    const int type = impl_->types[static_cast<std::size_t>(id)];
    return type == kControl || type == kUserDefined;
}

} // namespace attnlab
