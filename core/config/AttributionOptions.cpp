#include "core/config/AttributionOptions.h"

#include <algorithm>
#include <stdexcept>

namespace attnlab {

const std::vector<std::string>& AttributionOptions::methods()
{
    static const std::vector<std::string> all{"attention", "rollout", "attngrad", "grad", "gradxinput", "ig", "occlusion"};
    return all;
}

bool AttributionOptions::known(const std::string& method)
{
    const auto& all = methods();
    return std::find(all.begin(), all.end(), method) != all.end();
}

std::vector<std::string> AttributionOptions::parseList(const std::string& list)
{
    std::vector<std::string> chosen;
    if (list.empty() || list == "all")
        return chosen;
    for (std::size_t from = 0; from <= list.size();) {
        const auto comma = std::min(list.find(',', from), list.size());
        const std::string m = list.substr(from, comma - from);
        if (!known(m)) {
            std::string names;
            for (const auto& k : methods())
                names += (names.empty() ? "" : ", ") + k;
            throw std::invalid_argument("unknown method '" + m + "' (known: " + names + ", or all)");
        }
        chosen.push_back(m);
        from = comma + 1;
    }
    return chosen;
}

std::string AttributionOptions::describe(const std::string& method)
{
    if (method == "attention")
        return "attention weight each token receives: the pooling weights where the model pools by attention, "
               "else the last layer's weights averaged over heads and queries";
    if (method == "rollout")
        return "attention rollout (Abnar & Zuidema 2020) read out by the pooling: how much the sentence vector draws "
               "on each token through all layers";
    if (method == "attngrad")
        return "gradient-weighted attention rollout (Chefer et al. 2021): per layer the heads' mean of "
               "(dp/dA * A)+, accumulated as R += A R";
    if (method == "grad")
        return "gradient norm: |dp/de_t|, the L2 norm of the class probability's gradient on the token's word vector";
    if (method == "gradxinput")
        return "gradient x input: dp/de_t . e_t, signed";
    if (method == "ig")
        return "integrated gradients (Sundararajan et al. 2017): (e_t - e'_t) . mean of dp/de_t along the straight "
               "path from the baseline e'; the scores sum to p(x) - p(baseline) up to the completeness gap";
    if (method == "occlusion")
        return "leave one out: p(x) - p(x with the token replaced by <unk>, or removed)";
    return {};
}

std::string AttributionOptions::validate() const
{
    if (igSteps < 1 || igSteps > 1024)
        return "ig_steps: between 1 and 1024 (got " + std::to_string(igSteps) + ")";
    if (igBaseline != "pad" && igBaseline != "zero")
        return "ig_baseline: pad or zero (got '" + igBaseline + "')";
    if (occlusion != "unk" && occlusion != "remove")
        return "occlusion: unk or remove (got '" + occlusion + "')";
    if (targetClass < -1)
        return "target class: a class number from 0, or -1 for the predicted one";
    return {};
}

} // namespace attnlab
