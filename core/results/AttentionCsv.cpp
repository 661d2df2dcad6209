#include "core/results/AttentionCsv.h"

#include <sstream>

namespace attnlab {

std::string AttentionCsv::of(const AttentionSnapshot& s)
{
    const auto quoted = [](const std::string& t) {
        std::string q = "\"";
        for (char c : t)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    std::ostringstream out;
    out << "view,layer,head,query,key,weight\n";
    for (const auto& m : s.maps)
        for (int q = 0; q < m.size; ++q)
            for (int k = 0; k < m.size; ++k)
                out << (m.layer < 0 ? "rollout" : "map") << ',' << m.layer + 1 << ',' << m.head + 1 << ','
                    << quoted(s.tokens[static_cast<std::size_t>(q)]) << ',' << quoted(s.tokens[static_cast<std::size_t>(k)]) << ','
                    << m.at(q, k) << '\n';
    const auto rectangular = [&](const char* view, const std::vector<AttentionMap>& maps, const std::vector<std::string>& keys) {
        for (const auto& m : maps)
            for (int q = 0; q < m.size && q < static_cast<int>(s.targetTokens.size()); ++q)
                for (int k = 0; k < m.width() && k < static_cast<int>(keys.size()); ++k)
                    out << view << ',' << m.layer + 1 << ',' << m.head + 1 << ',' << quoted(s.targetTokens[static_cast<std::size_t>(q)])
                        << ',' << quoted(keys[static_cast<std::size_t>(k)]) << ',' << m.at(q, k) << '\n';
    };
    rectangular("cross", s.crossMaps, s.tokens);
    rectangular("decoder", s.decoderMaps, s.targetTokens);
    for (const auto& [source, target] : s.goldAlignment)
        if (static_cast<std::size_t>(target) < s.targetTokens.size() && static_cast<std::size_t>(source) < s.tokens.size())
            out << "gold,,," << quoted(s.targetTokens[static_cast<std::size_t>(target)]) << ',' << quoted(s.tokens[static_cast<std::size_t>(source)])
                << ",1\n";
    for (std::size_t i = 0; i < s.pooling.size() && i < s.tokens.size(); ++i)
        out << "pooling,,,," << quoted(s.tokens[i]) << ',' << s.pooling[i] << '\n';
    for (std::size_t t = 0; t < s.tokens.size() && !s.features.empty(); ++t)
        for (std::size_t f = 0; f < s.features.size(); ++f)
            out << "input_attention,,," << quoted(s.tokens[t]) << ',' << quoted(s.features[f]) << ','
                << s.inputAttention[t * s.features.size() + f] << '\n';
    return out.str();
}

} // namespace attnlab
