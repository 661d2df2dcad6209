#include "cli/SamplingFlags.h"

#include "cli/CliFlags.h"

#include <algorithm>

namespace attnlab {

const std::set<std::string>& SamplingFlags::valued()
{
    static const std::set<std::string> flags{"--temperature", "--top-k", "--top-p", "--seed"};
    return flags;
}

bool SamplingFlags::any(const CliFlags& flags)
{
    return std::any_of(valued().begin(), valued().end(), [&](const std::string& f) { return flags.has(f); });
}

SamplingSettings SamplingFlags::read(const CliFlags& flags, SamplingSettings s)
{
    s.temperature = flags.real("--temperature", s.temperature);
    s.topK = static_cast<int>(std::clamp<long long>(flags.integer("--top-k", s.topK), -1, 1 << 30));
    s.topP = flags.real("--top-p", s.topP);
    s.greedy = s.greedy || flags.has("--greedy");
    s.seed = static_cast<std::uint64_t>(std::max<long long>(0, flags.integer("--seed", static_cast<long long>(s.seed))));
    s.tokens = static_cast<int>(std::clamp<long long>(flags.integer("--tokens", s.tokens), -1, SamplingSettings::kMaxTokens + 1));
    if (auto problem = s.problem(); !problem.empty()) { // "top_k: ..." -> "--top-k: ..."
        const std::string key = problem.substr(0, problem.find(':'));
        const std::string flag = key == "top_k" ? "--top-k" : key == "top_p" ? "--top-p" : "--" + key;
        throw CliUsageError(flag + problem.substr(problem.find(':')));
    }
    return s;
}

} // namespace attnlab
