#include "core/results/Tokenizer13a.h"

#include <unicode/ustring.h>
#include <unicode/utf16.h>

namespace attnlab {

namespace {

bool isDigit(char32_t c) { return c >= U'0' && c <= U'9'; }
bool isPeriodOrComma(char32_t c) { return c == U'.' || c == U','; }

// The first rule's class [\{-\~\[-\` -\&\(-\+\:-\@\/]: every printable ASCII punctuation mark and the space,
// except the apostrophe, comma, hyphen and period (those have rules of their own, or none).
bool isSplitPunctuation(char32_t c)
{
    return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
           (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

// Python's str.replace: every non-overlapping occurrence, left to right.
std::u32string replaceAll(const std::u32string& s, const std::u32string& from, const std::u32string& to)
{
    std::u32string out;
    std::size_t start = 0;
    for (std::size_t at = s.find(from); at != std::u32string::npos; at = s.find(from, start)) {
        out.append(s, start, at - start);
        out += to;
        start = at + from.size();
    }
    out.append(s, start, std::u32string::npos);
    return out;
}

// re.sub of a two-character pattern: the scan tries a match at each position; after a match it goes on
// after both characters, so "a.." gives one match, not two (what Python's re does, overlaps never counted).
template <typename Match, typename Emit>
std::u32string substitutePairs(const std::u32string& s, Match match, Emit emit)
{
    std::u32string out;
    out.reserve(s.size() + s.size() / 2);
    std::size_t i = 0;
    while (i < s.size()) {
        if (i + 1 < s.size() && match(s[i], s[i + 1])) {
            emit(out, s[i], s[i + 1]);
            i += 2;
        } else {
            out += s[i++];
        }
    }
    return out;
}

} // namespace

std::string Tokenizer13a::tokenize(const std::string& text)
{
    // tokenizer_13a.py: the language-independent part.
    std::u32string line = decodeUtf8(text);
    line = replaceAll(line, U"<skipped>", U"");
    line = replaceAll(line, U"-\n", U"");
    line = replaceAll(line, U"\n", U" ");
    if (line.find(U'&') != std::u32string::npos) {
        line = replaceAll(line, U"&quot;", U"\"");
        line = replaceAll(line, U"&amp;", U"&");
        line = replaceAll(line, U"&lt;", U"<");
        line = replaceAll(line, U"&gt;", U">");
    }
    // tokenizer_re.py on f" {line} ".
    const std::u32string padded = U" " + line + U" ";
    std::u32string s;
    s.reserve(padded.size() * 2);
    for (char32_t c : padded) {
        if (isSplitPunctuation(c)) {
            s += U' ';
            s += c;
            s += U' ';
        } else {
            s += c;
        }
    }
    s = substitutePairs(
        s, [](char32_t a, char32_t b) { return !isDigit(a) && isPeriodOrComma(b); },
        [](std::u32string& out, char32_t a, char32_t b) { out += a, out += U' ', out += b, out += U' '; });
    s = substitutePairs(
        s, [](char32_t a, char32_t b) { return isPeriodOrComma(a) && !isDigit(b); },
        [](std::u32string& out, char32_t a, char32_t b) { out += U' ', out += a, out += U' ', out += b; });
    s = substitutePairs(
        s, [](char32_t a, char32_t b) { return isDigit(a) && b == U'-'; },
        [](std::u32string& out, char32_t a, char32_t b) { out += a, out += U' ', out += b, out += U' '; });
    std::u32string joined;
    for (const auto& word : splitWhitespace(s)) {
        if (!joined.empty())
            joined += U' ';
        joined += word;
    }
    return encodeUtf8(joined);
}

std::u32string Tokenizer13a::decodeUtf8(const std::string& text)
{
    std::u32string out;
    out.reserve(text.size());
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char b = p[i];
        int extra = 0;
        char32_t c = 0, least = 0;
        if (b < 0x80) {
            out += static_cast<char32_t>(b);
            ++i;
            continue;
        }
        if ((b & 0xE0) == 0xC0)
            extra = 1, c = b & 0x1F, least = 0x80;
        else if ((b & 0xF0) == 0xE0)
            extra = 2, c = b & 0x0F, least = 0x800;
        else if ((b & 0xF8) == 0xF0)
            extra = 3, c = b & 0x07, least = 0x10000;
        bool ok = extra > 0 && i + static_cast<std::size_t>(extra) < n; // its continuation bytes are there
        for (int k = 1; ok && k <= extra; ++k) {
            const unsigned char cont = p[i + static_cast<std::size_t>(k)];
            if ((cont & 0xC0) != 0x80)
                ok = false;
            else
                c = (c << 6) | (cont & 0x3F);
        }
        // Overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8.
        if (ok && (c < least || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF))
            ok = false;
        if (ok) {
            out += c;
            i += static_cast<std::size_t>(extra) + 1;
        } else {
            out += U'\uFFFD';
            ++i;
        }
    }
    return out;
}

std::string Tokenizer13a::encodeUtf8(const std::u32string& text)
{
    std::string out;
    out.reserve(text.size());
    for (char32_t c : text) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return out;
}

bool Tokenizer13a::isPythonSpace(char32_t c)
{
    // CPython's _PyUnicode_IsWhitespace table (Unicode 14/15; U+180E left it in Unicode 6.3).
    switch (c) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D:
    case 0x1C: case 0x1D: case 0x1E: case 0x1F: case 0x20:
    case 0x85: case 0xA0: case 0x1680:
    case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
        return true;
    default:
        return c >= 0x2000 && c <= 0x200A;
    }
}

std::vector<std::u32string> Tokenizer13a::splitWhitespace(const std::u32string& text)
{
    std::vector<std::u32string> words;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isPythonSpace(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !isPythonSpace(text[i]))
            ++i;
        if (i > start)
            words.emplace_back(text, start, i - start);
    }
    return words;
}

std::u32string Tokenizer13a::rstrip(const std::u32string& text)
{
    std::size_t end = text.size();
    while (end > 0 && isPythonSpace(text[end - 1]))
        --end;
    return text.substr(0, end);
}

std::u32string Tokenizer13a::lower(const std::u32string& text)
{
    bool ascii = true;
    for (char32_t c : text)
        ascii = ascii && c < 0x80;
    if (ascii) { // the common case, and the same answer: ASCII letters have simple mappings
        std::u32string out = text;
        for (auto& c : out)
            if (c >= U'A' && c <= U'Z')
                c = c - U'A' + U'a';
        return out;
    }
    // The whole string at once, not code point by code point: final sigma depends on the letters around it.
    std::u16string utf16;
    utf16.reserve(text.size() + 8);
    for (char32_t c : text) {
        UChar units[2];
        int32_t length = 0;
        UBool error = false;
        U16_APPEND(units, length, 2, static_cast<UChar32>(c), error);
        if (!error) // decodeUtf8 gives only scalar values, so this always holds
            utf16.append(reinterpret_cast<const char16_t*>(units), static_cast<std::size_t>(length));
    }
    std::u16string lowered(utf16.size() * 3 + 8, u'\0'); // a code point lowers to at most 3 in Unicode
    UErrorCode status = U_ZERO_ERROR;
    const int32_t length = u_strToLower(reinterpret_cast<UChar*>(lowered.data()), static_cast<int32_t>(lowered.size()),
                                        reinterpret_cast<const UChar*>(utf16.data()), static_cast<int32_t>(utf16.size()), "",
                                        &status);
    if (U_FAILURE(status))
        return text;
    std::u32string out;
    out.reserve(static_cast<std::size_t>(length));
    for (int32_t k = 0; k < length;) {
        UChar32 c;
        U16_NEXT(reinterpret_cast<const UChar*>(lowered.data()), k, length, c);
        out += static_cast<char32_t>(c);
    }
    return out;
}

} // namespace attnlab
