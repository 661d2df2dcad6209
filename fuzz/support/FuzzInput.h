#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab::fuzz {

// How a harness reads libFuzzer's bytes: the first `optionBytes` bytes choose the reader's settings
// (delimiter, policy, ...), the rest is the file content, split into files at ASCII record separators
// (0x1E) where a reader takes several files (train, dev, test). A seed is written the same way
// (fuzz/corpus/make_seeds.py), so every seed is a plain, readable file.
class FuzzInput {
public:
    static constexpr char kSeparator = '\x1e';

    FuzzInput(const std::uint8_t* data, std::size_t size, std::size_t optionBytes);

    // Option i as a choice among `count` values (byte % count); 0 when the input is shorter.
    std::size_t choice(std::size_t i, std::size_t count) const;
    template <typename T>
    const T& pick(std::size_t i, const std::vector<T>& values) const { return values[choice(i, values.size())]; }

    const std::string& body() const { return body_; }
    // Part k of the body (0-based) between separators; "" past the last one.
    std::string part(std::size_t k) const;
    std::size_t partCount() const { return parts_.size(); }

private:
    std::vector<std::uint8_t> options_;
    std::string body_;
    std::vector<std::string> parts_;
};

} // namespace attnlab::fuzz
