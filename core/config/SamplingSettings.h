#pragma once
#include <cstdint>
#include <string>

namespace attnlab {

// How a language model picks each next token, and the bounds every caller checks (generate's flags, the
// writing explorer's sliders, the samples each evaluation stores): one rule, worded by setting.
//   temperature T > 0 (finite): logits / T; top_k K >= 0 (0 = every token): the K likeliest only;
//   top_p P in (0, 1]: the smallest set of the likeliest tokens whose probability reaches P (Holtzman et al. 2020);
//   greedy: the likeliest token every time (the others are then ignored). seed: the draws, reproducible.
struct SamplingSettings {
    double temperature = 1.0;
    int topK = 0;
    double topP = 1.0;
    bool greedy = false;
    std::uint64_t seed = 1;
    int tokens = 200;

    static constexpr int kMaxTokens = 10000;
    // "" when every setting is in bounds, else "temperature: ..." naming the first bad one (its key).
    std::string problem() const;
};

} // namespace attnlab
