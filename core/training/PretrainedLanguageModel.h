#pragma once
#include "core/config/HeadSelection.h"
#include "core/config/SamplingSettings.h"
#include "core/data/pretrained/LlamaConfig.h"
#include "core/results/AttentionStepByStep.h"
#include "core/results/GeneratedText.h"
#include "core/results/HeadCopyScores.h"
#include "core/results/LogitLens.h"
#include "core/results/ModelExplanation.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

class ByteLevelBpeTokenizer;

// A pretrained LLaMA-style language model read from its GGUF file (SmolLM2-135M-Instruct by default: 30 layers x 9
// heads, 3 key/value heads), looked inside on typed text: every attention map, one head step by step, the logit lens,
// which heads copy (induction and previous-token scores), heads knocked out, and writing with the lab's sampler.
// `attnlab-cli explain|generate|heads --pretrained` and the window call it. Torch-free header; one call at a time
// inside (a mutex), from any thread.
class PretrainedLanguageModel {
public:
    static constexpr const char* kDefaultId = "smollm2-135m";
    // The installed model's GGUF file (its manifest's one file, looked for along DataLocator's search path); throws a
    // DataError saying how to install it.
    static std::string locate(const std::string& id = kDefaultId, const std::string& explicitDataDir = {});
    // Throws a DataError naming the file (and the key or tensor) when it is not a llama GGUF the lab reads.
    // device: "cpu" (default), "cuda" or "auto" (a GPU when there is one).
    explicit PretrainedLanguageModel(const std::string& ggufPath, const std::string& device = "cpu");
    ~PretrainedLanguageModel();
    PretrainedLanguageModel(const PretrainedLanguageModel&) = delete;
    PretrainedLanguageModel& operator=(const PretrainedLanguageModel&) = delete;

    // A text as the model reads it. Throws std::invalid_argument ("text: ...") for an empty text, invalid UTF-8
    // (naming the byte) or more pieces than the context.
    struct Pieces {
        std::vector<int> ids;
        std::vector<std::string> pieces; // each token's bytes (" the", "\n", "<|im_start|>")
    };
    Pieces tokenize(const std::string& text) const;
    // An instruction in the file's chat template (ChatML: the default system message, the user's turn, the
    // assistant's turn opened). Throws std::runtime_error when the file has no ChatML template.
    std::string chatPrompt(const std::string& instruction) const;

    // Every layer's and head's map of the text (layer-major), its pieces as tokens; `ablate` knocked out while reading.
    ModelExplanation explain(const std::string& text, const HeadSelection& ablate = {}) const;
    // The logit lens of the text: the `top` likeliest next pieces at every position and stage.
    LogitLens logitLens(const std::string& text, int top = 5, const HeadSelection& ablate = {}) const;
    // One head's attention for one query piece (0-based), step by step, with the row the model computed.
    // Throws std::invalid_argument naming "layer:", "head:" or "query:".
    AttentionStepByStep stepByStep(const std::string& text, int layer, int head, int query) const;
    // Writing on from a prompt with the lab's sampler (TokenSampler through SequenceDecoder::write over the key/value
    // cache). Throws std::invalid_argument as tokenize() and SamplingSettings::problem do.
    GeneratedText generate(const std::string& prompt, const SamplingSettings& sampling, int alternatives = 5,
                           bool attention = false, const HeadSelection& ablate = {}) const;
    // Induction and previous-token scores of every head on repeated random sequences, with the two halves' losses.
    // Throws std::invalid_argument for a length outside 4 .. context/2 - 1 or sequences outside 1 .. 64.
    HeadCopyScores copyingHeads(int length = 50, int sequences = 4, unsigned long long seed = 1,
                                const HeadSelection& ablate = {}) const;

    // The raw outputs for given ids (parity with the reference): logits [T][V] and, when asked, every map.
    struct Outputs {
        std::vector<float> logits;
        int length = 0, vocabulary = 0;
        std::vector<AttentionMap> maps;
    };
    Outputs run(const std::vector<int>& ids, bool attention = true, const HeadSelection& ablate = {}) const;
    // The next-token log-probabilities after the text [V] read once, then written one piece at a time over the cache:
    // [T][V] from the cache, to compare with run() (the cache must change nothing).
    std::vector<float> runCached(const std::vector<int>& ids) const;

    const LlamaConfig& config() const;
    const ByteLevelBpeTokenizer& tokenizer() const;
    const std::string& path() const;
    std::string deviceName() const;
    std::int64_t parameterCount() const;
    double loadSeconds() const; // opening: header, tokenizer, weights dequantized

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
