#include "core/nn/models/ModelFactory.h"

#include "core/nn/models/GptModel.h"
#include "core/nn/models/NgramModel.h"
#include "core/nn/models/RecurrentLanguageModel.h"

#include "core/nn/models/BertClassifier.h"
#include "core/nn/models/CnnClassifier.h"
#include "core/nn/models/DarnnRegressor.h"
#include "core/nn/models/LinearArRegressor.h"
#include "core/nn/models/ArimaRegressor.h"
#include "core/nn/models/PersistenceRegressor.h"
#include "core/nn/models/EssanRegressor.h"
#include "core/nn/models/LinearClassifier.h"
#include "core/nn/models/RecurrentClassifier.h"
#include "core/nn/models/RecurrentRegressor.h"
#include "core/nn/models/RecurrentSeq2Seq.h"
#include "core/nn/models/SsanClassifier.h"
#include "core/nn/models/TransformerClassifier.h"
#include "core/nn/models/TransformerSeq2Seq.h"

#include <stdexcept>

namespace attnlab {

std::shared_ptr<SequenceClassifier> ModelFactory::create(const ModelConfig& config)
{
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    if (config.isRegression())
        throw std::invalid_argument("model: a regression configuration (drivers > 0) needs createRegressor");
    const auto& m = config.model;
    if (m == "ssan" || m == "essan")
        return std::make_shared<SsanClassifier>(config, m == "essan");
    if (m == "transformer")
        return std::make_shared<TransformerClassifier>(config);
    if (m == "rnn" || m == "lstm" || m == "bilstm" || m == "gru" || m == "rnn-attention")
        return std::make_shared<RecurrentClassifier>(config);
    if (m == "cnn")
        return std::make_shared<CnnClassifier>(config);
    if (m == "minilm")
        return std::make_shared<BertClassifier>(config);
    if (m == "bow" || m == "ave")
        return std::make_shared<LinearClassifier>(config);
    throw std::invalid_argument("model: no implementation for '" + m + "'");
}

std::shared_ptr<SeriesRegressor> ModelFactory::createRegressor(const ModelConfig& config)
{
    if (!config.isRegression())
        throw std::invalid_argument("model: a time-series model needs the number of driving series (drivers > 0)");
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const auto& m = config.model;
    if (m == "essan")
        return std::make_shared<EssanRegressor>(config, config.drivers);
    if (m == "narx" || m == "encdec" || m == "attn-rnn")
        return std::make_shared<RecurrentRegressor>(config, config.drivers);
    if (m == "darnn")
        return std::make_shared<DarnnRegressor>(config, config.drivers, config.window);
    if (m == "persistence")
        return std::make_shared<PersistenceRegressor>(config.horizon);
    if (m == "linear-ar")
        return std::make_shared<LinearArRegressor>(config.window, config.horizon);
    if (m == "arima")
        return std::make_shared<ArimaRegressor>(config.window, config.horizon);
    throw std::invalid_argument("model: '" + m + "' has no time-series version");
}

std::shared_ptr<Seq2SeqModel> ModelFactory::createTranslator(const ModelConfig& config)
{
    if (!config.isTranslation())
        throw std::invalid_argument("model: a translation model needs the target vocabulary's size (target_vocabulary > 0)");
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    const auto& m = config.model;
    if (m == "seq2seq" || m == "bahdanau" || m == "luong" || m == "transformer-bahdanau" || m == "transformer-luong")
        return std::make_shared<RecurrentSeq2Seq>(config); // a recurrent decoder (after either encoder)
    if (m == "transformer-seq2seq" || m == "birnn-transformer")
        return std::make_shared<TransformerSeq2Seq>(config);
    throw std::invalid_argument("model: '" + m + "' is not a translation model");
}

} // namespace attnlab

namespace attnlab {

std::shared_ptr<LanguageModel> ModelFactory::createLanguageModel(const ModelConfig& config)
{
    if (config.vocabularySize < 1)
        throw std::invalid_argument("model: a language model needs the vocabulary's size (vocabulary > 0)");
    if (auto problem = config.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    if (config.model == "gpt")
        return std::make_shared<GptModel>(config);
    if (config.model == "char-rnn")
        return std::make_shared<RecurrentLanguageModel>(config);
    if (config.model == "ngram")
        return std::make_shared<NgramModel>(config);
    throw std::invalid_argument("model: '" + config.model + "' is not a language model");
}

} // namespace attnlab
