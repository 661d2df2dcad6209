#pragma once
#include <string>
#include <vector>

namespace attnlab {

// Attention weights of one layer and head: rows are queries, columns keys, row-major.
struct AttentionMap {
    int layer = 0;
    int head = 0;
    int size = 0;
    std::vector<float> weights;
    float at(int query, int key) const { return weights[static_cast<std::size_t>(query) * size + key]; }
};

// The probe sentence's attention at one evaluation step.
struct AttentionSnapshot {
    int step = 0;
    std::vector<std::string> tokens;
    std::vector<AttentionMap> maps;

    std::string toJson() const;
    static AttentionSnapshot fromJson(const std::string& json);
};

} // namespace attnlab
