#include "core/nn/models/ModelFactory.h"

#include "core/nn/models/FixedWindowLanguageModel.h"
#include "core/nn/models/GptModel.h"
#include "core/nn/models/NgramModel.h"
#include "core/nn/models/RecurrentLanguageModel.h"

#include "core/nn/models/ArimaRegressor.h"
#include "core/nn/models/BertClassifier.h"
#include "core/nn/models/CnnClassifier.h"
#include "core/nn/models/DarnnRegressor.h"
#include "core/nn/models/EssanRegressor.h"
#include "core/nn/models/KimCnnClassifier.h"
#include "core/nn/models/LinearArRegressor.h"
#include "core/nn/models/LinearClassifier.h"
#include "core/nn/models/PersistenceRegressor.h"
#include "core/nn/models/RecurrentClassifier.h"
#include "core/nn/models/RecurrentRegressor.h"
#include "core/nn/models/RecurrentSeq2Seq.h"
#include "core/nn/models/SsanClassifier.h"
#include "core/nn/models/TransformerClassifier.h"
#include "core/nn/models/TransformerSeq2Seq.h"

#include <functional>
#include <map>
#include <stdexcept>

namespace attnlab {
namespace {
template<typename Base>
using Builders = std::map<std::string, std::function<std::shared_ptr<Base>(const ModelConfig&)>>;

const Builders<SequenceClassifier>& classifiers()
{
    static const Builders<SequenceClassifier> table = {
        {"ssan", [](const ModelConfig& c) { return std::make_shared<SsanClassifier>(c, false); }},
        {"essan", [](const ModelConfig& c) { return std::make_shared<SsanClassifier>(c, true); }},
        {"transformer", [](const ModelConfig& c) { return std::make_shared<TransformerClassifier>(c); }},
        {"rnn", [](const ModelConfig& c) { return std::make_shared<RecurrentClassifier>(c); }},
        {"lstm", [](const ModelConfig& c) { return std::make_shared<RecurrentClassifier>(c); }},
        {"bilstm", [](const ModelConfig& c) { return std::make_shared<RecurrentClassifier>(c); }},
        {"gru", [](const ModelConfig& c) { return std::make_shared<RecurrentClassifier>(c); }},
        {"rnn-attention", [](const ModelConfig& c) { return std::make_shared<RecurrentClassifier>(c); }},
        {"cnn", [](const ModelConfig& c) { return std::make_shared<CnnClassifier>(c); }},
        {"kim-cnn",
         [](const ModelConfig& c) { return std::make_shared<KimCnnClassifier>(c, KimCnnClassifier::Variant::Kim); }},
        {"cnn-max-over-time",
         [](const ModelConfig& c) {
             return std::make_shared<KimCnnClassifier>(c, KimCnnClassifier::Variant::EarlierLabCnn);
         }},
        {"minilm", [](const ModelConfig& c) { return std::make_shared<BertClassifier>(c); }},
        {"bow", [](const ModelConfig& c) { return std::make_shared<LinearClassifier>(c); }},
        {"ave", [](const ModelConfig& c) { return std::make_shared<LinearClassifier>(c); }},
    };
    return table;
}

const Builders<SeriesRegressor>& regressors()
{
    static const Builders<SeriesRegressor> table = {
        {"essan", [](const ModelConfig& c) { return std::make_shared<EssanRegressor>(c, c.drivers); }},
        {"narx", [](const ModelConfig& c) { return std::make_shared<RecurrentRegressor>(c, c.drivers); }},
        {"encdec", [](const ModelConfig& c) { return std::make_shared<RecurrentRegressor>(c, c.drivers); }},
        {"attn-rnn", [](const ModelConfig& c) { return std::make_shared<RecurrentRegressor>(c, c.drivers); }},
        {"darnn", [](const ModelConfig& c) { return std::make_shared<DarnnRegressor>(c, c.drivers, c.window); }},
        {"persistence", [](const ModelConfig& c) { return std::make_shared<PersistenceRegressor>(c.horizon); }},
        {"linear-ar", [](const ModelConfig& c) { return std::make_shared<LinearArRegressor>(c.window, c.horizon); }},
        {"arima", [](const ModelConfig& c) { return std::make_shared<ArimaRegressor>(c.window, c.horizon); }},
    };
    return table;
}

const Builders<Seq2SeqModel>& translators()
{
    // A recurrent decoder after either encoder, or a Transformer decoder after either.
    const auto recurrent = [](const ModelConfig& c) { return std::make_shared<RecurrentSeq2Seq>(c); };
    const auto transformer = [](const ModelConfig& c) { return std::make_shared<TransformerSeq2Seq>(c); };
    static const Builders<Seq2SeqModel> table = {
        {"seq2seq", recurrent},
        {"bahdanau", recurrent},
        {"luong", recurrent},
        {"transformer-bahdanau", recurrent},
        {"transformer-luong", recurrent},
        {"transformer-seq2seq", transformer},
        {"birnn-transformer", transformer},
    };
    return table;
}

const Builders<LanguageModel>& languageModels()
{
    static const Builders<LanguageModel> table = {
        {"gpt", [](const ModelConfig& c) { return std::make_shared<GptModel>(c); }},
        {"char-rnn", [](const ModelConfig& c) { return std::make_shared<RecurrentLanguageModel>(c); }},
        {"ngram", [](const ModelConfig& c) { return std::make_shared<NgramModel>(c); }},
        {"ffn-lm", [](const ModelConfig& c) { return std::make_shared<FixedWindowLanguageModel>(c); }},
    };
    return table;
}

template<typename Base>
std::shared_ptr<Base> build(const Builders<Base>& table, const ModelConfig& config, const std::string& missing)
{
    const auto builder = table.find(config.model);
    if (builder == table.end())
        throw std::invalid_argument("model: '" + config.model + "' " + missing);
    return builder->second(config);
}
} // namespace

bool ModelFactory::implements(const std::string& model, TaskKind task)
{
    switch (task) {
    case TaskKind::Classification:
        return classifiers().count(model) > 0;
    case TaskKind::Regression:
        return regressors().count(model) > 0;
    case TaskKind::Translation:
        return translators().count(model) > 0;
    case TaskKind::LanguageModel:
        return languageModels().count(model) > 0;
    }
    return false;
}

std::shared_ptr<SequenceClassifier> ModelFactory::create(const ModelConfig& config)
{
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    if (config.isRegression())
        throw std::invalid_argument("model: a regression configuration (drivers > 0) needs createRegressor");
    return build(classifiers(), config, "has no classifier");
}

std::shared_ptr<SeriesRegressor> ModelFactory::createRegressor(const ModelConfig& config)
{
    if (!config.isRegression())
        throw std::invalid_argument("model: a time-series model needs the number of driving series (drivers > 0)");
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    return build(regressors(), config, "has no time-series version");
}

std::shared_ptr<Seq2SeqModel> ModelFactory::createTranslator(const ModelConfig& config)
{
    if (!config.isTranslation())
        throw std::invalid_argument("model: a translation model needs the target vocabulary's size (target_vocabulary > 0)");
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    return build(translators(), config, "is not a translation model");
}

std::shared_ptr<LanguageModel> ModelFactory::createLanguageModel(const ModelConfig& config)
{
    if (config.vocabularySize < 1)
        throw std::invalid_argument("model: a language model needs the vocabulary's size (vocabulary > 0)");
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    return build(languageModels(), config, "is not a language model");
}

} // namespace attnlab
