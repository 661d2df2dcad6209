#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/SamplingSettings.h"
#include "core/nn/models/Seq2SeqModel.h"
#include "core/nn/training/DecodingSource.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
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
    // A language model's beam, whose attention is as wide as the context at each step: each step's [layers * heads, W]
    // and the text position of its first column (`attention` stays undefined).
    std::vector<torch::Tensor> stepAttention;
    std::vector<std::int64_t> contextStarts;
    // search() with alternatives: each step's likeliest tokens, [steps, A] ids and their log-probabilities.
    torch::Tensor alternativeIds, alternativeLogProbabilities;
};

// The lab's decoding: one loop (write) that writes rows of sequences a token a step from any DecodingSource, the
// likeliest token or TokenSampler's draw, for a translation's greedy or drawn sentences and a language model's text
// alike; greedy decoding on it, batched over sentences, on the model's device; and beam search (search) over any
// DecodingSource, a translation's or a language model's. Beam search keeps each hypothesis' attention: as the beam
// is reordered, every row's tokens, log-probabilities and parents follow it, and a finished hypothesis takes each
// step's attention from the row its parents name, so it carries the alignment that made it. Scores follow GNMT (Wu
// et al. 2016) as JoeyNMT does: log P / lp with lp = ((5 + |Y|) / 6)^alpha (alpha 0 = plain log P). Candidates
// ending in <eos> among the best K are finished; the next K alive ones continue (fairseq's rule, so beam 1 is
// exactly greedy), and a sentence is done when K of its hypotheses have finished.
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

    // One step of write: what the source scored for the rows still writing and what each chose.
    struct WrittenStep {
        int t = 0;
        std::vector<std::int64_t> rows;      // [A]: each writing row's index among the source's first rows
        DecodingSource::Step out;            // the source's scores [A, V] and attention
        std::vector<std::int64_t> chosen;    // [A] the token each row took
        torch::Tensor tokens;                // the same [A] on the scores' device
        std::vector<bool> ends;              // [A] whether it was the row's last token
        // When drawing: the scores on the host ([A * V], row after row) and each row's distribution it drew from.
        std::vector<double> hostScores;
        std::vector<std::vector<double>> distributions;
    };
    // Writes until every row has ended: row i ends at the source's end token or with its token of step maxLength[i]
    // (with an end token, that step's token is the end token, whatever the scores say). samplers: null for the
    // likeliest token (the lowest id among equals), else one a row [N] drawing its tokens. record sees every step.
    static void write(DecodingSource& source, const std::vector<int>& maxLength, std::vector<TokenSampler>* samplers,
                      const std::function<void(const WrittenStep&)>& record);

    // maxLength: most target tokens a sentence may get (besides <eos>), per sentence [N] from the caller's rule.
    // samplers: empty for the likeliest token, else one a sentence [N] drawing its tokens.
    static std::vector<DecodedHypothesis> greedy(Seq2SeqModel& model, const torch::Tensor& source, const torch::Tensor& sourceMask,
                                                 const std::vector<int>& maxLength, std::vector<TokenSampler>* samplers = nullptr);
    // The K best finished hypotheses of each sentence, best first (at least one per sentence).
    static std::vector<std::vector<DecodedHypothesis>> beam(Seq2SeqModel& model, const torch::Tensor& source,
                                                            const torch::Tensor& sourceMask, int beamSize, double lengthPenalty,
                                                            const std::vector<int>& maxLength);
    // Beam search over any DecodingSource whose rows are groups of beamSize copies (row s * K + j: hypothesis j of
    // group s; a translation's sentence, a language model's prompt): the K best finished hypotheses of each group,
    // best first. A hypothesis ends with the source's end token (not among its tokens) or, for a source without one,
    // with its token of step maxLength[s] (among them). alternatives > 0: each step's that many likeliest tokens kept.
    static std::vector<std::vector<DecodedHypothesis>> search(DecodingSource& source, int beamSize, double lengthPenalty,
                                                              const std::vector<int>& maxLength, int alternatives = 0);
    static double lengthPenalty(int length, double alpha); // ((5 + length) / 6)^alpha
    // The usual limit: 2 S + 10 target tokens for a source of S tokens, at most `cap`.
    static std::vector<int> maxLengths(const torch::Tensor& sourceMask, int cap);
};

} // namespace attnlab
