#pragma once
// The bytes as a gzip file (zlib, fastest level), for harnesses whose readers take plain or gzip files alike
// (GzipInput): word vectors, parallel lines, a language model's text.
#include <zlib.h>

#include <string>

namespace attnlab::fuzz {

inline std::string gzipped(const std::string& bytes)
{
    z_stream z{};
    deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY); // 15 + 16: gzip wrapper
    std::string out(deflateBound(&z, bytes.size()) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

} // namespace attnlab::fuzz
