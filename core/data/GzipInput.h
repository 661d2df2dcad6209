#pragma once
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

struct gzFile_s; // zlib's gzFile, kept out of this header

namespace attnlab {

// Buffered reading through zlib, which reads gzip files decompressed and any other file as it is: word
// vectors (WordEmbeddings) and the Multi30k corpus (Multi30kReader) are read through this one class.
// Errors are DataErrors naming the file: one that cannot be opened, a read error, and gzip data that ends
// in the middle of its stream (a truncated download would otherwise read as a shorter file).
class GzipInput {
public:
    // `what` names the file in the error when it cannot be opened ("the embeddings file").
    explicit GzipInput(const std::string& path, const std::string& what = "the file");
    ~GzipInput();
    GzipInput(const GzipInput&) = delete;
    GzipInput& operator=(const GzipInput&) = delete;

    // Next byte or -1 at the end.
    int get()
    {
        if (pos_ == end_ && !fill()) return -1;
        return static_cast<unsigned char>(buffer_[pos_++]);
    }
    int peek()
    {
        if (pos_ == end_ && !fill()) return -1;
        return static_cast<unsigned char>(buffer_[pos_]);
    }
    // The next line without its LF (and CR); false at the end. A last line without LF is still a line.
    bool readLine(std::string& line);
    // Exactly n bytes, or false when the file ends first.
    bool readBytes(char* out, std::size_t n);
    // Peeks up to n bytes without consuming them (they stay in the buffer).
    std::string lookahead(std::size_t n);

    // Every line of a plain or gzip text file, checked to be UTF-8 (a bad byte is a DataError naming file
    // and line, as TextFile::readLines).
    static std::vector<std::string> readLines(const std::string& path);

private:
    bool fill();
    std::string path_;
    gzFile_s* file_;
    std::vector<char> buffer_ = std::vector<char>(1 << 20);
    std::size_t pos_ = 0, end_ = 0;
};

} // namespace attnlab
