#include "core/data/GzipInput.h"

#include "core/data/DataError.h"
#include "core/data/TextFile.h"

#include <zlib.h>

#include <algorithm>

namespace attnlab {

GzipInput::GzipInput(const std::string& path, const std::string& what) : path_(path), file_(gzopen(path.c_str(), "rb"))
{
    if (!file_)
        throw DataError(path, 0, "cannot open " + what + " (missing or unreadable)");
    gzbuffer(file_, 1 << 18);
}

GzipInput::~GzipInput() { gzclose(file_); }

bool GzipInput::readLine(std::string& line)
{
    line.clear();
    while (true) {
        if (pos_ == end_ && !fill()) return !line.empty();
        const char* start = buffer_.data() + pos_;
        const void* nl = std::memchr(start, '\n', end_ - pos_);
        if (nl) {
            const auto n = static_cast<std::size_t>(static_cast<const char*>(nl) - start);
            line.append(start, n);
            pos_ += n + 1;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return true;
        }
        line.append(start, end_ - pos_);
        pos_ = end_;
    }
}

bool GzipInput::readBytes(char* out, std::size_t n)
{
    while (n > 0) {
        if (pos_ == end_ && !fill()) return false;
        const std::size_t take = std::min(n, end_ - pos_);
        std::memcpy(out, buffer_.data() + pos_, take);
        pos_ += take;
        out += take;
        n -= take;
    }
    return true;
}

std::string GzipInput::lookahead(std::size_t n)
{
    if (end_ - pos_ < n) {
        std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
        end_ -= pos_;
        pos_ = 0;
        const int got = gzread(file_, buffer_.data() + end_, static_cast<unsigned>(buffer_.size() - end_));
        if (got > 0) end_ += static_cast<std::size_t>(got);
    }
    return std::string(buffer_.data() + pos_, std::min(n, end_ - pos_));
}

bool GzipInput::fill()
{
    const int got = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
    if (got < 0)
        throw DataError(path_, 0, "read error (a damaged gzip file?)");
    pos_ = 0;
    end_ = static_cast<std::size_t>(got);
    if (got == 0) {
        // zlib ends a stream cut short as it ends a whole one; only its error code tells them apart.
        int code = Z_OK;
        gzerror(file_, &code);
        if (code == Z_BUF_ERROR)
            throw DataError(path_, 0, "the gzip data ends in the middle (a truncated or partial download?)");
    }
    return got > 0;
}

std::vector<std::string> GzipInput::readLines(const std::string& path)
{
    GzipInput in(path);
    std::vector<std::string> lines;
    std::string line;
    while (in.readLine(line)) {
        if (auto bad = TextFile::invalidUtf8Offset(line); bad != std::string::npos)
            throw DataError(path, static_cast<int>(lines.size()) + 1, "invalid UTF-8 at byte " + std::to_string(bad + 1) + " of the line");
        lines.push_back(line);
    }
    return lines;
}

} // namespace attnlab
