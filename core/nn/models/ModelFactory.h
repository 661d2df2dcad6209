#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/ModelConfig.h"
#include "core/nn/models/LanguageModel.h"
#include "core/nn/models/Seq2SeqModel.h"
#include "core/nn/models/SequenceClassifier.h"
#include "core/nn/models/SeriesRegressor.h"

#include <memory>

namespace attnlab {

// Builds the module for a validated ModelConfig; throws std::invalid_argument naming the bad setting.
// The one place a registry id meets its class: a table per task, so a new model is one row here beside
// its ModelSpec in core/config/Registry.cpp.
class ModelFactory {
public:
    // Whether the model has an implementation for data of this task (test_models checks every ModelSpec).
    static bool implements(const std::string& model, TaskKind task);
    static std::shared_ptr<SequenceClassifier> create(const ModelConfig& config);
    static std::shared_ptr<SeriesRegressor> createRegressor(const ModelConfig& config);
    static std::shared_ptr<Seq2SeqModel> createTranslator(const ModelConfig& config);
    // ngram (its counts still to estimate), ffn-lm, char-rnn, gpt; vocabularySize set from the data.
    static std::shared_ptr<LanguageModel> createLanguageModel(const ModelConfig& config);
};

} // namespace attnlab
