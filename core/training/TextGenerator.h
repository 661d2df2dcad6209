#pragma once
#include "core/config/SamplingSettings.h"
#include "core/config/TrainConfig.h"
#include "core/results/AttentionStepByStep.h"
#include "core/results/GateValues.h"
#include "core/results/GeneratedText.h"
#include "core/results/RunRecord.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// A trained language model loaded back from its checkpoint (ModelCheckpoint: weights or counts, the vocabulary,
// its unit and prompt in one file) to write from a typed prompt (`attnlab-cli generate`, the writing explorer).
// Only a file the store recorded is opened, and only when its sha256 still matches. One call at a time inside.
class TextGenerator {
public:
    static constexpr int kMaxSamples = 64; // TextGeneration::kMaxSamples
    // Throws std::runtime_error naming the file: gone, altered, not a checkpoint, or not a language model.
    explicit TextGenerator(const CheckpointRef& checkpoint);
    ~TextGenerator();
    TextGenerator(const TextGenerator&) = delete;
    TextGenerator& operator=(const TextGenerator&) = delete;

    // Throws std::invalid_argument: an empty prompt, a character (or word) the model never saw (named, with its
    // place), or sampling settings out of bounds (SamplingSettings::problem).
    GeneratedText generate(const std::string& prompt, const SamplingSettings& sampling, int alternatives = 5,
                           bool attention = true) const;
    // `samples` texts from one prompt, written together, sample i seeded with sampling.seed + i (sample 0 is
    // generate()'s); also throws std::invalid_argument ("samples: ...") outside 1 to 64.
    std::vector<GeneratedText> generateSamples(const std::string& prompt, const SamplingSettings& sampling, int samples,
                                               int alternatives = 5, bool attention = true) const;
    // The beamSize likeliest continuations of `tokens` tokens, best first (beam search; nothing drawn): each text's
    // log-probability and, per token, the model's probability, alternatives and attention. Throws
    // std::invalid_argument as generate() does for the prompt, and "beam: ..." / "tokens: ..." outside their bounds.
    std::vector<GeneratedText> beamSearch(const std::string& prompt, int tokens, int beamSize, int alternatives = 5,
                                          bool attention = true) const;

    // One head's attention for one query over the text (its last `context` tokens), step by step: layer and head
    // 0-based, query a token index. Throws std::invalid_argument as generate() does for the text, and for a layer,
    // head or query the model does not have (a model without self-attention has none).
    AttentionStepByStep stepByStep(const std::string& text, int layer, int head, int query) const;

    // An LSTM's or GRU's gates over the text read from a zero state, its tokens in *tokens (empty for a model
    // without gates). Throws std::invalid_argument as generate() does for the text.
    GateValues gates(const std::string& text, std::vector<std::string>* tokens = nullptr) const;

    // An untrained language model of these settings (vocabulary size filled in): its summary and its trainable
    // parameters as training reports them (`attnlab-cli describe`). Throws std::invalid_argument with
    // ModelConfig::validate's reason.
    static std::pair<std::string, std::int64_t> describe(const ModelConfig& model);

    const TrainConfig& config() const; // the run's configuration, the model's sizes filled in
    const std::vector<std::string>& vocabulary() const;
    std::string unit() const;   // characters | words | pieces
    std::vector<std::string> tokensOf(const std::string& text) const; // the text as the model's tokens (LanguageModelText)
    std::string prompt() const; // the dataset's own prompt, where the run's samples started
    std::string weights() const; // "best" | "final"
    int step() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
