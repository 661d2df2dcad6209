#include "core/nn/training/TokenSampler.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab {

TokenSampler::TokenSampler(const SamplingSettings& settings) : settings_(settings), rng_(settings.seed) {}

std::vector<double> TokenSampler::hostLogits(const torch::Tensor& logits)
{
    const auto host = logits.detach().reshape({-1}).to(torch::kCPU, torch::kDouble).contiguous();
    return {host.data_ptr<double>(), host.data_ptr<double>() + host.numel()};
}

std::vector<double> TokenSampler::probabilities(const std::vector<double>& logits)
{
    // exp(x - max) / sum: the largest term is 1, so nothing overflows and the sum is at least 1.
    std::vector<double> p(logits.size());
    const double top = logits.empty() ? 0.0 : *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (std::size_t i = 0; i < logits.size(); ++i)
        sum += p[i] = std::exp(logits[i] - top);
    for (auto& x : p)
        x /= sum;
    return p;
}

std::vector<double> TokenSampler::distribution(const std::vector<double>& logits) const
{
    std::vector<double> scaled(logits);
    for (auto& x : scaled)
        x /= settings_.temperature;
    std::vector<double> p = probabilities(scaled);
    if (settings_.greedy)
        return p;
    std::vector<std::size_t> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] > p[b]; }); // likeliest first, ties by id
    std::size_t keep = p.size();
    if (settings_.topK > 0)
        keep = std::min<std::size_t>(keep, static_cast<std::size_t>(settings_.topK));
    if (settings_.topP < 1.0) { // the smallest prefix whose mass reaches p
        double mass = 0.0;
        for (std::size_t i = 0; i < keep; ++i) {
            mass += p[order[i]];
            if (mass >= settings_.topP) {
                keep = i + 1;
                break;
            }
        }
    }
    double kept = 0.0;
    for (std::size_t i = 0; i < keep; ++i)
        kept += p[order[i]];
    std::vector<double> out(p.size(), 0.0);
    for (std::size_t i = 0; i < keep; ++i)
        out[order[i]] = p[order[i]] / kept;
    return out;
}

std::int64_t TokenSampler::next(const std::vector<double>& distribution)
{
    if (settings_.greedy)
        return std::max_element(distribution.begin(), distribution.end()) - distribution.begin();
    const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53; // [0, 1)
    double cumulative = 0.0;
    std::int64_t last = 0;
    for (std::size_t i = 0; i < distribution.size(); ++i) {
        if (distribution[i] <= 0.0)
            continue;
        last = static_cast<std::int64_t>(i);
        cumulative += distribution[i];
        if (u < cumulative)
            return last;
    }
    return last; // rounding left u above the sum: the last token kept
}

} // namespace attnlab
