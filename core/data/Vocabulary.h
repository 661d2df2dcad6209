#pragma once
#include "core/data/TextExample.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

// Token <-> id. Id 0 is padding, id 1 the unknown token; real tokens start at 2.
class Vocabulary {
public:
    static constexpr std::int64_t kPad = 0;
    static constexpr std::int64_t kUnknown = 1;

    Vocabulary();
    static Vocabulary fromExamples(const std::vector<TextExample>& examples);

    std::int64_t add(const std::string& token);
    std::int64_t id(const std::string& token) const;
    const std::string& token(std::int64_t id) const;
    std::int64_t size() const { return static_cast<std::int64_t>(tokens_.size()); }

private:
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, std::int64_t> ids_;
};

} // namespace attnlab
