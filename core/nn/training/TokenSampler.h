#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/SamplingSettings.h"

#include <torch/torch.h>

#include <cstdint>
#include <random>
#include <vector>

namespace attnlab {

// The next token from a model's logits, as SamplingSettings says: the one decoding rule of every language model
// (generate, the explorer, the evaluation samples). The draw is the settings' own mt19937_64 read as a uniform
// number and walked along the cumulative distribution on the host, so a seed gives the same text with either
// LibTorch and any thread count (torch::multinomial's draws differ between builds).
class TokenSampler {
public:
    explicit TokenSampler(const SamplingSettings& settings);
    // logits [V] (any device) -> the same on the host in double: one copy a step, the rest without tensor ops
    // (writing one token is a few dozen small ops; each costs more than this arithmetic over a vocabulary).
    static std::vector<double> hostLogits(const torch::Tensor& logits);
    // The distribution the token is drawn from: softmax(logits / T), cut to the top K and the top-p set, renormalised.
    // -> probabilities, zeros outside the kept set.
    std::vector<double> distribution(const std::vector<double>& logits) const;
    std::vector<double> distribution(const torch::Tensor& logits) const { return distribution(hostLogits(logits)); }
    // softmax(logits): the model's own probabilities, for the alternatives.
    static std::vector<double> probabilities(const std::vector<double>& logits);
    static std::vector<double> probabilities(const torch::Tensor& logits) { return probabilities(hostLogits(logits)); }
    // Greedy: the likeliest (the lowest id among equals); else a draw from distribution().
    std::int64_t next(const std::vector<double>& distribution);

private:
    SamplingSettings settings_;
    std::mt19937_64 rng_;
};

} // namespace attnlab
