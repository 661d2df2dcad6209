#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/SamplingSettings.h"
#include "core/nn/models/LanguageModel.h"
#include "core/results/GeneratedText.h"

#include <string>
#include <vector>

namespace attnlab {

// A language model writing: the lab's one decoding loop (SequenceDecoder::write, as translations are decoded) over a
// WritingDecodingSource: the prompt read once into the model's state, then one token at a time over it (a GPT's
// key/value cache: each new token costs one position; nanoGPT's generate runs the whole context again for each),
// each drawn by TokenSampler. Each step keeps its token's probability, the likeliest
// `alternatives` tokens and, when asked, the attention of every layer and head over the context.
class TextGeneration {
public:
    struct Request {
        std::vector<std::int32_t> prompt; // at least one token
        SamplingSettings sampling;
        int alternatives = 5;
        bool attention = true;
    };
    static constexpr int kMaxSamples = 64;
    static GeneratedText generate(LanguageModel& model, const Request& request, const std::vector<std::string>& vocabulary,
                                  const std::string& unit, const torch::Device& device);
    // Several samples from one prompt, written together (one row each, as nanoGPT's sample.py writes num_samples one
    // after the other): sample i draws from its own stream, seeded with the request's seed + i, so sample 0 is
    // generate()'s text and any sample i is the text written alone with seed + i. Throws std::invalid_argument
    // ("samples: ...") outside 1 to kMaxSamples.
    // The beamSize likeliest continuations of request.sampling.tokens tokens, best first: beam search through the
    // routine translations are searched with (SequenceDecoder::search; no end token, so every hypothesis is as long).
    // Temperature, top-k, top-p and the seed play no part; each step's probability and alternatives are the model's.
    // Throws std::invalid_argument ("beam: must be 1 to 64 ...") outside 1 to kMaxSamples.
    static std::vector<GeneratedText> beamSearch(LanguageModel& model, const Request& request, int beamSize,
                                                 const std::vector<std::string>& vocabulary, const std::string& unit,
                                                 const torch::Device& device);
    static std::vector<GeneratedText> generateSamples(LanguageModel& model, const Request& request, int samples,
                                                      const std::vector<std::string>& vocabulary, const std::string& unit,
                                                      const torch::Device& device);
};

} // namespace attnlab
