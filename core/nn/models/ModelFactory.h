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
class ModelFactory {
public:
    static std::shared_ptr<SequenceClassifier> create(const ModelConfig& config);
    static std::shared_ptr<SeriesRegressor> createRegressor(const ModelConfig& config);
    static std::shared_ptr<Seq2SeqModel> createTranslator(const ModelConfig& config);
    // ngram (its counts still to estimate), char-rnn, gpt; vocabularySize set from the data.
    static std::shared_ptr<LanguageModel> createLanguageModel(const ModelConfig& config);
};

} // namespace attnlab
