#pragma once
#include "core/config/TrainConfig.h"
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
    // is out of bounds (not a number included).
    Translation translate(const std::string& text, const Decoding& decoding = {}) const;
    // The typed target taken as the translation (teacher-forced, one pass): what the model gives each of its words
    // and <eos>, every attention over it, each step's likeliest tokens (decoding.alternatives) and, on a built-in
    // sequence task, the gold alignment and AER. Where the model's own choice differs from the typed word is
    // where it disagrees. Throws std::invalid_argument when either side is empty.
    Translation force(const std::string& source, const std::string& target, const Decoding& decoding = {}) const;
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
