#pragma once
#include <cstddef>
#include <memory>
#include <string>

namespace attnlab {

// SHA-256 through OpenSSL's EVP interface (libssl-dev): the manifests' checksums and the embedding
// cache's key. A vetted library rather than our own code, since a wrong digest would silently accept
// a corrupt download.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(const void* data, std::size_t size);
    std::string hexDigest(); // finishes; lowercase hex, 64 characters

    static std::string ofFile(const std::string& path); // throws std::runtime_error naming the file
    static std::string ofText(const std::string& text);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
