#include "core/data/TextFile.h"

#include "core/data/DataError.h"
#include "core/platform/FileInfo.h"

#include <fstream>
#include <sstream>

namespace attnlab {

std::size_t TextFile::invalidUtf8Offset(std::string_view s)
{
    std::size_t i = 0;
    const std::size_t n = s.size();
    while (i < n) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        int extra = 0;
        unsigned int cp = 0;
        if ((c & 0xE0) == 0xC0) { extra = 1; cp = c & 0x1F; }
        else if ((c & 0xF0) == 0xE0) { extra = 2; cp = c & 0x0F; }
        else if ((c & 0xF8) == 0xF0) { extra = 3; cp = c & 0x07; }
        else return i;
        if (i + static_cast<std::size_t>(extra) >= n) return i;
        for (int k = 1; k <= extra; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (d & 0x3F);
        }
        // Overlong forms, surrogates and values past U+10FFFF are invalid too.
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
            return i;
        i += static_cast<std::size_t>(extra) + 1;
    }
    return std::string_view::npos;
}

std::string TextFile::withoutZeroWidth(std::string text)
{
    // U+FEFF = EF BB BF, U+200B = E2 80 8B, U+200C/D = E2 80 8C/8D.
    static const std::string kinds[] = {"\xEF\xBB\xBF", "\xE2\x80\x8B", "\xE2\x80\x8C", "\xE2\x80\x8D"};
    for (const auto& k : kinds)
        for (auto p = text.find(k); p != std::string::npos; p = text.find(k, p))
            text.erase(p, k.size());
    return text;
}

bool TextFile::exists(const std::string& path)
{
    return FileInfo::of(path).isRegular();
}

std::vector<std::string> TextFile::readLines(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw DataError(path, 0, "cannot open the file (missing or unreadable)");
    std::vector<std::string> lines;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (auto bad = invalidUtf8Offset(line); bad != std::string_view::npos)
            throw DataError(path, number, "invalid UTF-8 at byte " + std::to_string(bad + 1) + " of the line");
        lines.push_back(std::move(line));
    }
    if (in.bad())
        throw DataError(path, number, "read error");
    return lines;
}

} // namespace attnlab
