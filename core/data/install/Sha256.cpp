#include "core/data/install/Sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <stdexcept>
#include <vector>

namespace attnlab {

struct Sha256::Impl {
    EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : impl_(std::make_unique<Impl>())
{
    impl_->ctx = EVP_MD_CTX_new();
    if (!impl_->ctx || EVP_DigestInit_ex(impl_->ctx, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("sha256: OpenSSL could not start a digest");
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(impl_->ctx);
}

void Sha256::update(const void* data, std::size_t size)
{
    EVP_DigestUpdate(impl_->ctx, data, size);
}

std::string Sha256::hexDigest()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(impl_->ctx, digest, &length);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}

std::string Sha256::ofFile(const std::string& path)
{
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        throw std::runtime_error(path + ": cannot open the file to check its sha256");
    Sha256 sha;
    std::vector<char> buffer(1 << 20);
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), f)) > 0)
        sha.update(buffer.data(), n);
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed)
        throw std::runtime_error(path + ": read error while checking its sha256");
    return sha.hexDigest();
}

std::string Sha256::ofText(const std::string& text)
{
    Sha256 sha;
    sha.update(text.data(), text.size());
    return sha.hexDigest();
}

} // namespace attnlab
