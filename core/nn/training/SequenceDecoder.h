#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/SamplingSettings.h"
#include "core/nn/models/Seq2SeqModel.h"

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace attnlab {

class TokenSampler;

// One decoded target sentence: its tokens without <bos> and <eos>, the log-probability of each token and of the
// closing <eos>, and the cross-attention of every step (rows = its tokens then <eos>, columns = source tokens).
struct DecodedHypothesis {
    std::vector<std::int64_t> tokens;
    std::vector<float> logProbabilities; // tokens.size() + 1: the last is <eos>'s (or the cut-off step's)
    double logProbability = 0.0;         // their sum
    double score = 0.0;                  // logProbability / lp(length), the beam's ranking
    bool finished = true;                // ended with <eos> (false: cut at the maximum length)
    torch::Tensor attention;             // [steps, layers * heads, S] float on the CPU; undefined without attention
    std::vector<int> parents;            // beam only: at each step the rank (0..K-1) among the alive ones it extended
};

// Greedy and beam search for any Seq2SeqModel, batched over sentences, on the model's device. Beam search keeps
// each hypothesis' attention: as the beam is reordered, the history of every row (tokens, log-probabilities,
// attention) is selected with it, so a finished hypothesis carries the alignment that made it. Scores follow
// GNMT (Wu et al. 2016) as JoeyNMT does: log P / lp with lp = ((5 + |Y|) / 6)^alpha (alpha 0 = plain log P).
// Candidates ending in <eos> among the best K are finished; the next K alive ones continue (fairseq's rule,
// so beam 1 is exactly greedy), and a sentence is done when K of its hypotheses have finished.
class SequenceDecoder {
public:
    static constexpr int kMaxOutputLength = 200; // no translation is longer, whatever its source

    // How the lab decodes sentences, a run's evaluation and Translator alike.
    struct Settings {
        int beamSize = 1;              // 1: greedy
        double lengthPenalty = 0.0;    // beam search's alpha
        int maxLength = kMaxOutputLength; // the model's ModelConfig::maxLength: no sentence gets more tokens
        // Set: each token drawn as a language model draws it (TokenSampler: temperature, top-k, top-p, the seed), a
        // beam of 1 only. Sentence i draws from its own stream, seeded with seeds[i] (seed + i when seeds is empty),
        // so its translation does not depend on the sentences batched with it.
        std::optional<SamplingSettings> sampling;
        std::vector<std::uint64_t> seeds;
    };
    // Greedy for a beam of 1 (one hypothesis a sentence), else beam search (its K best, best first); each sentence at
    // most 2 S + 10 tokens for a source of S, and never more than min(kMaxOutputLength, settings.maxLength).
    // Throws std::invalid_argument ("sampling: ...") for sampling with a beam, or sampling settings out of bounds.
    static std::vector<std::vector<DecodedHypothesis>> decode(Seq2SeqModel& model, const torch::Tensor& source,
                                                              const torch::Tensor& sourceMask, const Settings& settings);

    // maxLength: most target tokens a sentence may get (besides <eos>), per sentence [N] from the caller's rule.
    // samplers: empty for the likeliest token, else one a sentence [N] drawing its tokens.
    static std::vector<DecodedHypothesis> greedy(Seq2SeqModel& model, const torch::Tensor& source, const torch::Tensor& sourceMask,
                                                 const std::vector<int>& maxLength, std::vector<TokenSampler>* samplers = nullptr);
    // The K best finished hypotheses of each sentence, best first (at least one per sentence).
    static std::vector<std::vector<DecodedHypothesis>> beam(Seq2SeqModel& model, const torch::Tensor& source,
                                                            const torch::Tensor& sourceMask, int beamSize, double lengthPenalty,
                                                            const std::vector<int>& maxLength);
    static double lengthPenalty(int length, double alpha); // ((5 + length) / 6)^alpha
    // The usual limit: 2 S + 10 target tokens for a source of S tokens, at most `cap`.
    static std::vector<int> maxLengths(const torch::Tensor& sourceMask, int cap);
};

} // namespace attnlab
