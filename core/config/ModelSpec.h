#pragma once
#include "core/config/TaskKind.h"

#include <string>
#include <vector>

namespace attnlab {

// What a model can do, declared once in its registry entry, so that validation, the designer's rows, the
// views and the explainers ask the entry instead of comparing model ids.
struct ModelAbilities {
    // Its forward pass has attention weights to show (the SANs, the Transformers, the attention RNNs, the
    // GPT); an LSTM, a CNN or a bag of words has none, so a view says so instead of waiting for a map.
    bool attention = false;
    // Its decoder is recurrent (a GRU reading the previous word): teacher forcing below 1 applies. A
    // Transformer decoder reads the whole target at once and is always forced.
    bool recurrentDecoder = false;
    // Its layers are Transformer layers over word vectors of d_model: it takes no other embedding size.
    bool transformerLayers = false;
    // The least order n a language model reads: a fixed window of n - 1 tokens needs at least one.
    int minimumOrder = 1;
};

// One model of the registry: its ids and words, the tasks it trains on, the settings that apply to it
// (positions, pooling, options, dropout points) and its abilities. Registry::models() lists them all;
// adding a model is adding one of these and its implementation (docs/ARCHITECTURE.md, "Adding a model").
struct ModelSpec {
    std::string id;
    std::string name;
    std::string description;
    std::vector<std::string> positions; // position techniques that apply, the default first where it matters
    TaskKinds tasks; // the datasets it trains on
    std::vector<std::string> pooling; // pooling choices, the default first
    std::vector<std::string> options; // ModelConfig settings that matter to it (the designer shows these rows)
    std::vector<std::string> dropoutAllowed; // dropout points it has (input, hidden, output)
    std::vector<std::string> dropoutDefault; // the points used when none are chosen
    // The pretrained model (a datasets/*.json manifest of task "pretrained") whose weights start it; "" for
    // the models trained from scratch. Its sizes come from that model's config.json.
    std::string pretrained = {};
    ModelAbilities can = {};

    bool servesTask(TaskKind task) const { return tasks.has(task); }
    // The task it is listed under: ESSAN, which does both, is a classifier first.
    TaskKind task() const { return tasks.primary(); }
    bool hasOption(const std::string& option) const;
    bool takesPosition(const std::string& position) const;
};

} // namespace attnlab
