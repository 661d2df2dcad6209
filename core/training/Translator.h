#pragma once
#include "core/config/SamplingSettings.h"
#include "core/config/TrainConfig.h"
#include "core/results/AttentionStepByStep.h"
#include "core/results/RunRecord.h"
#include "core/results/Translation.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// How Translator decodes: the run's own settings unless these say otherwise.
struct TranslationDecoding {
    std::optional<int> beamSize;         // unset = the run's; else within DecodingSettings' bounds
    std::optional<double> lengthPenalty; // unset = the run's; else within DecodingSettings' bounds
    bool withAttention = true; // false: words only (a file of sentences)
    int alternatives = 0;      // > 0: each step's likeliest next tokens (Translation::alternatives), this many
    // Set: each word drawn as a language model draws it (temperature, top-k, top-p; its bounds), a beam of 1 only.
    // Line i of translateAll draws from its own stream, seeded with seed + i, whatever it is batched with.
    std::optional<SamplingSettings> sampling;
};

// A trained encoder-decoder loaded back from its checkpoint (ModelCheckpoint: weights, both vocabularies,
// tokenizer and decoding settings in one file) to translate typed text (`attnlab-cli translate`). Only a file
// the store recorded is opened, and only when its sha256 still matches. It decodes as the run's evaluation did
// (its beam size and length penalty) unless told otherwise, so translating the test split gives back the run's
// stored test BLEU. One call at a time inside (the module's state).
class Translator {
public:
    // Throws std::runtime_error naming the file: gone, altered, not a checkpoint, or not a translation model.
    explicit Translator(const CheckpointRef& checkpoint);
    ~Translator();
    Translator(const Translator&) = delete;
    Translator& operator=(const Translator&) = delete;

    using Decoding = TranslationDecoding;
    // Each throws std::invalid_argument with DecodingSettings' message when the decoding's beam or length penalty
    // is out of bounds (not a number included), SamplingSettings' for sampling out of bounds, "sampling: ..." for
    // sampling with a beam.
    Translation translate(const std::string& text, const Decoding& decoding = {}) const;
    // The typed target taken as the translation (teacher-forced, one pass): what the model gives each of its words
    // and <eos>, every attention over it, each step's likeliest tokens (decoding.alternatives) and, on a built-in
    // sequence task, the gold alignment and AER. Where the model's own choice differs from the typed word is
    // where it disagrees. Throws std::invalid_argument when either side is empty.
    Translation force(const std::string& source, const std::string& target, const Decoding& decoding = {}) const;
    // One head of the model's attention computed step by step on a source and its translation (the typed `target`, or
    // the model's own when it is empty), from one teacher-forced pass: part "encoder" (the source's self-attention),
    // "decoder" (the translation's causal self-attention) or "cross" (the translation's rows over the source); ""
    // the first of cross, decoder and encoder the model has.
    // Rows and keys are named as the window names the maps: the translation's words and <eos> (the word each step
    // writes), the source's tokens. layer, head 0-based; query a row. Throws std::invalid_argument starting with
    // "part:", "layer:", "head:", "query:" or "text:" when the model has no such one (a recurrent encoder or decoder has
    // no self-attention; the Transformer decoder is the only one with cross-attention taken this way).
    AttentionStepByStep stepByStep(const std::string& source, const std::string& target, const std::string& part, int layer, int head,
                                   int query) const;
    // Many sentences in batches, in order; progress(done, total) after each batch.
    std::vector<Translation> translateAll(const std::vector<std::string>& texts, const Decoding& decoding = {},
                                          const std::function<void(std::size_t, std::size_t)>& progress = {}) const;

    // An untrained model of these settings (vocabulary sizes filled in): its summary and its trainable parameters
    // besides the two word tables, as training reports them (`attnlab-cli describe`). Throws std::invalid_argument
    // with ModelConfig::validate's reason.
    static std::pair<std::string, std::int64_t> describe(const ModelConfig& model);

    const TrainConfig& config() const; // the run's configuration, the model's sizes filled in
    std::string weights() const;       // "best" | "final"
    int step() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
