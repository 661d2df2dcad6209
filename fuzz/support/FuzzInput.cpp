#include "fuzz/support/FuzzInput.h"

namespace attnlab::fuzz {

FuzzInput::FuzzInput(const std::uint8_t* data, std::size_t size, std::size_t optionBytes)
{
    const std::size_t n = size < optionBytes ? size : optionBytes;
    options_.assign(data, data + n);
    body_.assign(reinterpret_cast<const char*>(data) + n, size - n);
    std::size_t start = 0;
    for (std::size_t at; (at = body_.find(kSeparator, start)) != std::string::npos; start = at + 1)
        parts_.push_back(body_.substr(start, at - start));
    parts_.push_back(body_.substr(start));
}

std::size_t FuzzInput::choice(std::size_t i, std::size_t count) const
{
    return i < options_.size() && count > 0 ? options_[i] % count : 0;
}

std::string FuzzInput::part(std::size_t k) const
{
    return k < parts_.size() ? parts_[k] : std::string();
}

} // namespace attnlab::fuzz
