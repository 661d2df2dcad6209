#pragma once
#include "core/config/AttributionOptions.h"
#include "core/config/TrainConfig.h"
#include "core/data/TextExample.h"
#include "core/results/ExamplePrediction.h"
#include "core/results/AttentionStepByStep.h"
#include "core/results/ModelExplanation.h"
#include "core/results/PositionView.h"
#include "core/results/RunRecord.h"
#include "core/results/TokenAttribution.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// A trained sentence classifier loaded back from its checkpoint (ModelCheckpoint: weights, vocabulary,
// classes and tokenizer in one file) to answer "what does it make of this sentence?". Only a file the
// store recorded is opened, and only when its sha256 still matches. Used by `attnlab-cli explain` and
// the window's explorer; explain() may be called from any thread (one call at a time inside).
class ModelExplainer {
public:
    // Throws std::runtime_error naming the file: gone, altered, not a checkpoint, or a time-series model
    // (which is explained by its stored snapshots, not by typed text).
    explicit ModelExplainer(const CheckpointRef& checkpoint);
    ~ModelExplainer();
    ModelExplainer(const ModelExplainer&) = delete;
    ModelExplainer& operator=(const ModelExplainer&) = delete;

    ModelExplanation explain(const std::string& text) const;
    // One head's attention for one query of the typed sentence, step by step (AttentionStepByStep): layer and head
    // 0-based, query a token index. Throws std::invalid_argument when the model has no self-attention layer there
    // (say which it has) or the query is past the sentence.
    AttentionStepByStep stepByStep(const std::string& text, int layer, int head, int query) const;
    // Explanation methods on one typed sentence (AttributionOptions::methods(), empty = all): each
    // one score per token (as explain() tokenises it) for one class. Methods that do not apply to the model
    // (rollout without self-attention) come back with no scores and a note saying why. Throws
    // std::invalid_argument naming an unknown method or a bad option.
    std::vector<TokenAttribution> attribute(const std::string& text, const std::vector<std::string>& methods = {},
                                            const AttributionOptions& options = {}) const;
    // The same on tokens already split (a dataset's example): cut to max_length, then scored. The tokens
    // of each result are the ones scored.
    std::vector<TokenAttribution> attributeTokens(std::vector<std::string> tokens, const std::vector<std::string>& methods,
                                                  const AttributionOptions& options = {}) const;
    // Class probabilities of many token sequences at once (faithfulness curves: one sentence with tokens
    // deleted or given back), [input][class]; "<unk>" is the unknown word, as the vocabulary has it.
    std::vector<std::vector<double>> probabilitiesOf(const std::vector<std::vector<std::string>>& inputs) const;
    // Class probabilities of one token sequence with every attention distribution of the model permuted
    // over its tokens (the permutation test; nn/layers/AttentionPermutation): one row per order, each a
    // permutation of 0..T-1 for the T tokens (after the cut to max_length), [order][class].
    std::vector<std::vector<double>> probabilitiesWithAttentionPermuted(const std::vector<std::string>& tokens,
                                                                        const std::vector<std::vector<int>>& orders) const;
    // Every example of a split, in its order, in batches (no attention recorded): gold, prediction and
    // class probabilities, exactly as the run's evaluation computed them (same vocabulary, same cut to
    // max_length).
    std::vector<ExamplePrediction> predict(const std::vector<TextExample>& examples) const;

    // The model's position technique made visible, for inputs of `length` tokens: sinusoidal or learned
    // position vectors (positions x dimensions, the first 64 dimensions), RPR's learned key and value
    // tables per layer (distances -k..k x head dimensions), ALiBi's bias per head (query x key), RoPE's
    // q.k score against distance for a query equal to the key. Empty for models without one.
    std::vector<PositionView> positionViews(int length = 32) const;

    const TrainConfig& config() const;   // the run's configuration, the model's sizes filled in
    const std::vector<std::string>& classNames() const;
    std::string weights() const;         // "best" | "final"
    int step() const;

    // Which of a run's checkpoints to use: the one saved at `step` when given (nothing when no weights of
    // that step were kept), else the best-dev one (the step the run reported, `bestStep`), else the last.
    static std::optional<CheckpointRef> choose(const std::vector<CheckpointRef>& checkpoints, int bestStep,
                                               std::optional<int> step = std::nullopt);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
