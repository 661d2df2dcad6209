#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// Reads a data file as UTF-8 lines (LF or CRLF). The encoding is checked up front so that a bad byte
// is reported with its file and line instead of turning into odd tokens later.
class TextFile {
public:
    // Throws DataError when the file cannot be read or a line is not valid UTF-8.
    static std::vector<std::string> readLines(const std::string& path);
    // Offset of the first byte that is not valid UTF-8, or npos.
    static std::size_t invalidUtf8Offset(std::string_view text);
    // Removes invisible code points that real files carry (U+FEFF byte-order marks inside SenTube lines,
    // zero-width spaces): they would make "good" and "good\uFEFF" different words.
    static std::string withoutZeroWidth(std::string text);
    static bool exists(const std::string& path);
};

} // namespace attnlab
