#include "core/config/HeadSelection.h"

#include <algorithm>
#include <stdexcept>

namespace attnlab {

namespace {

// A whole decimal number of at most 6 digits, or -1.
int number(const std::string& s)
{
    if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return -1;
    return std::stoi(s);
}

} // namespace

HeadSelection HeadSelection::parse(const std::string& text, int layers, int heads, const std::string& setting)
{
    HeadSelection selection;
    const std::string shape =
        " (the model has " + std::to_string(layers) + " layers of " + std::to_string(heads) + " heads)";
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        const std::string pair = text.substr(at, comma - at);
        at = comma + 1;
        if (pair.empty() && text.empty())
            break;
        const std::size_t dot = pair.find('.');
        const int layer = dot == std::string::npos ? -1 : number(pair.substr(0, dot));
        const int head = dot == std::string::npos ? -1 : number(pair.substr(dot + 1));
        if (layer < 0 || head < 0)
            throw std::invalid_argument(setting + ": '" + pair + "' is not LAYER.HEAD (1-based, as \"4.7,12.1\")");
        if (layer < 1 || layer > layers)
            throw std::invalid_argument(setting + ": '" + pair + "': layer " + std::to_string(layer) +
                                        " does not exist" + shape);
        if (head < 1 || head > heads)
            throw std::invalid_argument(setting + ": '" + pair + "': head " + std::to_string(head) + " does not exist" +
                                        shape);
        const std::pair<int, int> h {layer - 1, head - 1};
        if (std::find(selection.heads.begin(), selection.heads.end(), h) != selection.heads.end())
            throw std::invalid_argument(setting + ": head " + pair + " is written twice");
        selection.heads.push_back(h);
    }
    return selection;
}

std::string HeadSelection::text() const
{
    std::string out;
    for (const auto& [l, h] : heads)
        out += (out.empty() ? "" : ",") + std::to_string(l + 1) + "." + std::to_string(h + 1);
    return out;
}

} // namespace attnlab
